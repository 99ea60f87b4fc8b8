import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadError } from './load-error';

afterEach(cleanup);

describe('LoadError (a 账户安全 section whose list could not be read)', () => {
  it("shows the server's message and reads the list again on Retry", () => {
    const refetch = vi.fn(() => Promise.resolve());
    render(<LoadError query={{ isError: true, error: { message: 'Service unavailable' }, refetch }} />);
    expect(screen.getByRole('alert').textContent).toContain('Service unavailable');
    // 重试 (antd spaces two Chinese characters on a button).
    const retry = screen.getByRole('button');
    expect(retry.textContent?.replace(/\s/g, '')).toBe('重试');
    fireEvent.click(retry);
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('shows nothing while the list is fine', () => {
    const { container } = render(
      <LoadError query={{ isError: false, error: null, refetch: () => Promise.resolve() }} />,
    );
    expect(container.innerHTML).toBe('');
  });
});

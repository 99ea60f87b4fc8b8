import { cleanup, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AntdProvider } from './antd';

/** What antd's components below the provider read: whether they animate. */
function Motion() {
  const { token } = theme.useToken();
  return <span data-testid="motion">{String(token.motion)}</span>;
}

const wantsStill = (still: boolean) =>
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query) =>
      ({
        matches: still && query === '(prefers-reduced-motion: reduce)',
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );

describe('AntdProvider and prefers-reduced-motion', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('animates for a reader who did not ask for less motion', () => {
    wantsStill(false);
    render(
      <AntdProvider>
        <Motion />
      </AntdProvider>,
    );
    expect(screen.getByTestId('motion').textContent).toBe('true');
  });

  it('turns antd’s animations off for a reader who asked for less motion', () => {
    wantsStill(true);
    render(
      <AntdProvider>
        <Motion />
      </AntdProvider>,
    );
    expect(screen.getByTestId('motion').textContent).toBe('false');
  });
});

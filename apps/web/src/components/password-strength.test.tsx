import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PasswordStrength } from './password-strength';

afterEach(cleanup);

describe('PasswordStrength (the meter as shown)', () => {
  it('shows nothing for an empty password', () => {
    const { container } = render(<PasswordStrength password="" />);
    expect(container.innerHTML).toBe('');
  });

  it.each([
    ['abcdefgh', 30, '密码强度：低'],
    ['abcd1234', 60, '密码强度：中'],
    ['Abcd123!', 100, '密码强度：强'],
    ['!!!!', 30, '密码强度：低'],
  ])('%s → meter %i and %s', (password, value, text) => {
    render(<PasswordStrength password={password} />);
    expect(screen.getByRole('meter').getAttribute('aria-valuenow')).toBe(String(value));
    expect((screen.getByRole('meter').firstChild as HTMLElement).style.width).toBe(`${value}%`);
    expect(screen.getByText(text)).toBeTruthy();
  });
});

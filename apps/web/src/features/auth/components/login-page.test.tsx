import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../../lib/i18n';
import { LoginPage } from './login-page';

afterEach(() => {
  cleanup();
  act(() => setLocale('zh-CN'));
});

const send = () => fireEvent.click(screen.getByRole('button', { name: /登\s*录|Sign in|Log in/ }));

describe('the login form after a switch of language', () => {
  it("shows the fields' messages in the new language", async () => {
    render(<LoginPage signIn={async () => {}} humanCheck={{ kind: 'pop', render: () => null }} />);
    send();
    await screen.findByText('用户名不可以为空');
    act(() => setLocale('en-US'));
    expect(screen.getByText('Username cannot be empty')).toBeTruthy();
    expect(screen.getByText('Password cannot be empty')).toBeTruthy();
    expect(screen.queryByText('用户名不可以为空')).toBeNull();
  });

  it("takes the server's refusal away: it is in the language it was asked in", async () => {
    const signIn = async () => {
      throw new Error('用户名、密码或验证码错误');
    };
    render(
      <LoginPage
        signIn={signIn}
        humanCheck={{
          kind: 'inline',
          render: ({ onPassed }) => (
            <button type="button" onClick={() => onPassed('v')}>
              check
            </button>
          ),
        }}
      />,
    );
    fireEvent.change(document.getElementById('username')!, { target: { value: 'member' } });
    fireEvent.change(document.getElementById('password')!, { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'check' }));
    send();
    await screen.findByText('用户名、密码或验证码错误');
    act(() => setLocale('en-US'));
    expect(screen.queryByText('用户名、密码或验证码错误')).toBeNull();
  });
});

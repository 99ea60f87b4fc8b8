import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Each test gets fresh module state (the "one notice at a time" flags live in the module).
async function freshHandler() {
  vi.resetModules();
  (await import('../i18n')).initI18n();
  const { handleFailure } = await import('./failures');
  const session = await import('../session');
  // The dialogs the handler loads on first use, from the same (fresh) module registry.
  const { default: Modal } = await import('antd/es/modal');
  const { default: notification } = await import('antd/es/notification');
  const { default: message } = await import('antd/es/message');
  return { handleFailure, session, Modal, notification, message };
}

let replace: ReturnType<typeof vi.fn>;
beforeEach(() => {
  replace = vi.fn();
  vi.stubGlobal('location', { ...window.location, replace, pathname: '/center/ent/colist', search: '?tc=demo' });
});
/** antd's feedback loads on first use (lib/feedback.ts): slow on a busy machine. */
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 10_000 });

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the one failure handler', () => {
  it('shows one dialog for several concurrent 401s, and logs out once when confirmed', async () => {
    const { handleFailure, session, Modal } = await freshHandler();
    session.useSession.setState({ token: 't' });
    const confirm = vi.spyOn(Modal, 'confirm').mockImplementation(() => ({ destroy() {}, update() {} }) as never);
    handleFailure(401, 'x');
    handleFailure(40101, 'x');
    handleFailure(401, 'x');
    await eventually(() => expect(confirm).toHaveBeenCalled()); // the dialog loads on first use
    expect(confirm).toHaveBeenCalledTimes(1);
    const opts = confirm.mock.calls[0]![0];
    expect(opts.title).toBe('你已被登出，可以取消继续留在该页面，或者重新登录');
    await opts.onOk!();
    await opts.onOk!();
    expect(replace).toHaveBeenCalledTimes(1);
    expect(replace.mock.calls[0]![0]).toBe('/center/login?redirect=%2Fent%2Fcolist%3Ftc%3Ddemo');
  });

  it('logs out after 1.5 s on 40121 with the ticket-expired notice, once for many', async () => {
    vi.useFakeTimers();
    const { handleFailure, session, message } = await freshHandler();
    session.useSession.setState({ token: 't' });
    const warn = vi.spyOn(message, 'warning').mockImplementation(() => (() => {}) as never);
    handleFailure(40121, 'x');
    handleFailure(40121, 'x');
    await eventually(() => expect(warn).toHaveBeenCalled());
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toBe('票据过期');
    expect(replace).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1500);
    expect(replace).toHaveBeenCalledTimes(1);
  });

  it('maps 500, 40303 and other codes to their messages, as a warning or not at all when asked', async () => {
    const { handleFailure, session, notification, message } = await freshHandler();
    session.useSession.setState({ token: 't' });
    const error = vi.spyOn(message, 'error').mockImplementation(() => (() => {}) as never);
    const notify = vi.spyOn(notification, 'error').mockImplementation(() => undefined);
    handleFailure(500, 'stack trace');
    await eventually(() => expect(error).toHaveBeenLastCalledWith('服务器错误', undefined));
    handleFailure(40303, '当前用户不拥有该角色');
    await eventually(() =>
      expect(notify).toHaveBeenCalledWith({ message: '没有操作权限', description: '当前用户不拥有该角色' }),
    );
    handleFailure(400, '请求参数不正确');
    await eventually(() => expect(error).toHaveBeenLastCalledWith('请求参数不正确', undefined));
    error.mockClear();
    const warning = vi.spyOn(message, 'warning').mockImplementation(() => (() => {}) as never);
    expect(handleFailure(400, '昵称不能为空', 'warning')).toBe(true);
    await eventually(() => expect(warning).toHaveBeenLastCalledWith('昵称不能为空', undefined));
    expect(handleFailure(400, 'quiet', { handledBy: 'a form that shows it under the field' })).toBe(false);
    expect(handleFailure(500, 'x', { handledBy: 'a form' })).toBe(true); // 服务器错误 whatever the caller says
    await new Promise((r) => setTimeout(r, 50));
    expect(error).toHaveBeenCalledTimes(1);
    expect(warning).toHaveBeenCalledTimes(1);
  });

  it('does nothing for logout codes when nobody is signed in', async () => {
    const { handleFailure, session, Modal } = await freshHandler();
    session.useSession.setState({ token: null });
    const confirm = vi.spyOn(Modal, 'confirm');
    handleFailure(401, 'x');
    await new Promise((r) => setTimeout(r, 50));
    expect(confirm).not.toHaveBeenCalled();
  });

  it('takes a session whose password must change first (40305) to the change page once, even from a caller that shows its own', async () => {
    const { handleFailure, session } = await freshHandler();
    session.useSession.setState({ token: 't' });
    expect(handleFailure(40305, 'x', { handledBy: 'a page of its own' })).toBe(true);
    handleFailure(40305, 'x');
    expect(replace).toHaveBeenCalledTimes(1);
    expect(replace.mock.calls[0]![0]).toBe(
      '/center/user/register-result?tc=demo&required=1&redirect=%2Fent%2Fcolist%3Ftc%3Ddemo',
    );
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh client and handler (the handler keeps "one notice at a time" state per module). */
async function freshClient() {
  vi.resetModules();
  (await import('../i18n')).initI18n();
  const client = await import('./client');
  const session = await import('../session');
  const { default: notification } = await import('antd/es/notification');
  const { default: message } = await import('antd/es/message');
  session.useSession.setState({ token: 't' });
  return { ...client, notification, message };
}

const answer = (status: number, body: unknown, type = 'application/json') =>
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(typeof body === 'string' ? body : JSON.stringify(body), {
          status,
          headers: { 'content-type': type },
        }),
    ),
  );

/** antd's feedback loads on first use (lib/feedback.ts): slow on a busy machine. */
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 10_000 });

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the client and the result codes, also for a caller that shows its own messages', () => {
  it('shows 服务器错误 for a 500, never the text the server or a proxy sent', async () => {
    const { request, ownMessage, message } = await freshClient();
    const error = vi.spyOn(message, 'error').mockImplementation(() => (() => {}) as never);
    for (const [status, body] of [
      [500, { status: 500, message: 'java.lang.NullPointerException at Foo.bar', data: null }],
      [502, '<html><body>502 Bad Gateway</body></html>'],
    ] as const) {
      answer(status, body, typeof body === 'string' ? 'text/html' : 'application/json');
      const err = await request('/api/x', { failures: { handledBy: 'this test' } }).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 500, message: '服务器错误', shown: true });
      expect(ownMessage(err)).toBeNull();
    }
    await eventually(() => expect(error).toHaveBeenCalledTimes(2));
    expect(error).toHaveBeenLastCalledWith('服务器错误', undefined);
  });

  it('shows 40303 as a notification titled 没有操作权限 with the server message, once', async () => {
    const { request, ownMessage, notification } = await freshClient();
    const notify = vi.spyOn(notification, 'error').mockImplementation(() => undefined);
    answer(403, { status: 40303, message: '当前用户不拥有该角色', data: null });
    const err = await request('/api/front/member/switchContext', {
      body: {},
      failures: { handledBy: 'this test' },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 40303, message: '当前用户不拥有该角色', shown: true });
    expect(ownMessage(err)).toBeNull(); // the caller's own warning would say it twice
    await eventually(() =>
      expect(notify).toHaveBeenCalledWith({ message: '没有操作权限', description: '当前用户不拥有该角色' }),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('leaves other refusals to a caller that shows its own, and shows them for one that does not', async () => {
    const { request, ownMessage, message } = await freshClient();
    const error = vi.spyOn(message, 'error').mockImplementation(() => (() => {}) as never);
    answer(400, { status: 400, message: '请输入昵称', data: null });
    const quiet = await request('/api/x', { body: {}, failures: { handledBy: 'this test' } }).catch((e: unknown) => e);
    expect(ownMessage(quiet)).toBe('请输入昵称');
    await new Promise((r) => setTimeout(r, 30));
    expect(error).not.toHaveBeenCalled();
    const loud = await request('/api/x', { body: {} }).catch((e: unknown) => e);
    expect(ownMessage(loud)).toBeNull();
    await eventually(() => expect(error).toHaveBeenCalledWith('请输入昵称', undefined));
  });
});

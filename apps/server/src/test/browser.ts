import { randomBytes } from 'node:crypto';
import { DEMO_PASSWORD, type TestContext } from './harness.js';

/**
 * A browser for server tests that walk redirects across the sign-on server, the OpenID Provider and
 * the systems signing in through them: cookies kept by path, redirects followed by hand, the
 * request's language and (for form posts) its origin as a browser sends them.
 */
export class TestBrowser {
  cookies = new Map<string, { value: string; path: string }>();
  constructor(
    readonly base: string,
    readonly lang = 'zh-CN',
  ) {}

  header(path: string) {
    return [...this.cookies.entries()]
      .filter(([, c]) => path.startsWith(c.path))
      .map(([k, c]) => `${k.split('|')[0]}=${c.value}`)
      .join('; ');
  }

  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const path = attrs.map((a) => /^\s*path=(.*)$/i.exec(a)?.[1]).find(Boolean) ?? '/';
      const gone = /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line) || value === '';
      if (gone) this.cookies.delete(`${name}|${path}`);
      else this.cookies.set(`${name}|${path}`, { value, path });
    }
  }

  /** One request; a form post carries this server's origin unless `origin` says another. */
  async go(url: string, init: { method?: string; body?: string; origin?: string } = {}) {
    const u = new URL(url, this.base);
    const origin = init.origin ?? (init.body ? this.base : undefined);
    const res = await fetch(u, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        cookie: this.header(u.pathname),
        'accept-language': this.lang,
        ...(init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(origin ? { origin } : {}),
      },
      ...(init.body ? { body: init.body } : {}),
    });
    this.take(res);
    return res;
  }

  /** Follows redirects until one leaves this server (or a page is shown); the trail of addresses. */
  async follow(url: string, max = 12): Promise<{ res: Response; url: string; trail: string[] }> {
    let at = new URL(url, this.base).href;
    const trail: string[] = [];
    for (let i = 0; i < max; i++) {
      const res = await this.go(at);
      trail.push(`${res.status} ${at}`);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { res, url: at, trail };
      const next = new URL(location, at);
      if (next.origin !== new URL(this.base).origin) return { res, url: next.href, trail };
      at = next.href;
    }
    throw new Error(`too many redirects: ${trail.join(' → ')}`);
  }

  /** The sign-on server's ticket-granting cookie. */
  get tgc() {
    return this.cookies.get('CASTGC|/cas')?.value;
  }
}

/**
 * Signs `b` in at the sign-on server's form (the POST the portal's sign-in page makes, with the
 * test-mode captcha answer), for `service` if given; the browser keeps CASTGC. The redirect's address.
 */
export async function casSignIn(
  ctx: Pick<TestContext, 'call' | 'encrypt'>,
  b: TestBrowser,
  opts: { service?: string; username?: string; tenantCode?: string } = {},
): Promise<string> {
  const captchaKey = randomBytes(8).toString('hex');
  await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
  const form = new URLSearchParams({
    username: opts.username ?? 'member',
    password: ctx.encrypt(DEMO_PASSWORD),
    imgvercode: '8888',
    captchaKey,
    tenantCode: opts.tenantCode ?? 'demo',
    ...(opts.service ? { service: opts.service } : {}),
  });
  const res = await b.go('/cas/login', { method: 'POST', body: form.toString() });
  if (res.status !== 303 || !b.tgc) throw new Error(`sign-on refused ${opts.username ?? 'member'}: ${res.status}`);
  return res.headers.get('location')!;
}

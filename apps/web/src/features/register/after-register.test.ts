import { describe, expect, it } from 'vitest';
import { afterRegisterUrl, loginLinkUrl, registerLayout } from './after-register';

const cfg = { ssoUrl: '', appBaseUrl: '', backurl: '', publicpath: '/center/' };

describe('afterRegisterUrl', () => {
  it('goes to the sign-on login with tenant and service when a sign-on server is configured', () => {
    const sso = { ...cfg, ssoUrl: 'https://sso.example.com/' };
    expect(afterRegisterUrl(sso, 'demo', 'https://app.example.com/x?a=1')).toBe(
      'https://sso.example.com/cas/login?loginType=2&tenantCode=demo&service=https%3A%2F%2Fapp.example.com%2Fx%3Fa%3D1',
    );
    expect(afterRegisterUrl(sso, 'demo', null)).toBe('https://sso.example.com/cas/login?loginType=2&tenantCode=demo');
  });

  it('else the app base URL with the tenant code, else the portal login', () => {
    expect(afterRegisterUrl({ ...cfg, appBaseUrl: 'https://p.example.com/app?x=1' }, 'demo', 's')).toBe(
      'https://p.example.com/app?x=1&tenantCode=demo',
    );
    expect(afterRegisterUrl(cfg, 'demo', null)).toBe('/center/login?tenantCode=demo');
  });
});

describe('loginLinkUrl', () => {
  it('is the back URL with the tenant code, or the portal login', () => {
    expect(loginLinkUrl({ ...cfg, backurl: 'https://p.example.com/login#top' }, 'a b')).toBe(
      'https://p.example.com/login?tenantCode=a+b#top',
    );
    expect(loginLinkUrl(cfg, 'demo')).toBe('/center/login?tenantCode=demo');
  });
});

describe('registerLayout', () => {
  const base = { registerTheme: '', theme: '', apptheme: '' };
  it('takes the named layout first, then follows the theme', () => {
    expect(registerLayout(base)).toBe('card');
    expect(registerLayout({ ...base, registerTheme: 'Split' })).toBe('split');
    expect(registerLayout({ ...base, registerTheme: '3', theme: 'top' })).toBe('banner');
    expect(registerLayout({ ...base, theme: 'JZH' })).toBe('banner');
    expect(registerLayout({ ...base, theme: 'top' })).toBe('split');
    expect(registerLayout({ ...base, registerTheme: 'unknown', apptheme: 'top' })).toBe('split');
  });
});

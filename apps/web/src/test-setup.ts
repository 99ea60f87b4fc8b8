import type { RuntimeConfig } from '@portal/contracts';

// The runtime configuration the server would serve as config.js.
const config: RuntimeConfig = {
  siteName: '企业服务门户',
  logo: '',
  theme: '',
  apptheme: '',
  registerTheme: '',
  noticeEnabled: false,
  registerWithoutSms: false,
  notsms: true,
  workbenchEnabled: true,
  appSwitch: false,
  keepAlive: false,
  languageSwitch: false,
  homePortalLink: false,
  domianURL: '',
  backurl: '',
  appBaseUrl: '',
  baseurl: '',
  publicpath: '/center/',
  ssoUrl: '',
  defaultTenantCode: 'demo',
  signSecret: 'test-secret',
  storagePrefix: 'portal_',
  requestTimeoutMs: 15000,
  phonePattern: '',
  defaultLocale: 'zh-CN',
  captchaType: 'blockPuzzle',
  captchaMode: 'pop',
  keepAliveMax: 10,
};
window.__PORTAL_CONFIG__ = config;

// antd reads matchMedia, which jsdom lacks (GOTCHAS).
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

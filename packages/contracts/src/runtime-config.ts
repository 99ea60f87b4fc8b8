/**
 * The runtime configuration the server writes into `/center/config.js` as
 * `window.__PORTAL_CONFIG__` (ARCHITECTURE §4): every switch of spec §1 plus what the SPA needs
 * before it boots. Changing it needs no rebuild.
 */
import type { CaptchaType } from './entities.js';

export interface RuntimeConfig {
  siteName: string;
  logo: string;
  /** Layout theme; empty is the default side-menu layout. */
  theme: string;
  apptheme: string;
  registerTheme: string;
  noticeEnabled: boolean;
  registerWithoutSms: boolean;
  /** SMS verification on registration (spec §1 `notsms`, default on). */
  notsms: boolean;
  /** The user drop-down offers 切换工作台. */
  workbenchEnabled: boolean;
  /** The user drop-down offers 切换应用 (spec §6: shown only when configured). */
  appSwitch: boolean;
  keepAlive: boolean;
  /** At most this many hidden tabs keep their page alive; the least recently used is let go. */
  keepAliveMax: number;
  languageSwitch: boolean;
  /** The header shows a back-to-portal link; without `domianURL` it warns 园区首页地址未配置！. */
  homePortalLink: boolean;
  /** Home-portal (park) address the back-to-portal link opens. */
  domianURL: string;
  backurl: string;
  appBaseUrl: string;
  baseurl: string;
  publicpath: string;
  /** Single sign-on server base URL; empty means the standalone login form. */
  ssoUrl: string;
  /** Default tenant code when none is given in the address. */
  defaultTenantCode: string;
  signSecret: string;
  storagePrefix: string;
  requestTimeoutMs: number;
  phonePattern: string;
  defaultLocale: 'zh-CN' | 'en-US';
  /** Which behavioural captcha the SPA shows when the server asks for one (getCaptchaType `anji`). */
  captchaType: CaptchaType;
  /** AJ-Captcha's display mode for it: `pop` (a dialog on submit) or `fixed` (inline in the form). */
  captchaMode: 'pop' | 'fixed';
}

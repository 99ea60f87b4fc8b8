/**
 * The runtime configuration the server writes into `/center/config.js` as
 * `window.__PORTAL_CONFIG__`: every switch of docs/product/overview.md#runtime-switches, plus what the SPA needs before it boots.
 * Changing it needs no rebuild. This schema is its one description (ADR 018): the server checks
 * `PORTAL_RUNTIME_CONFIG` against it and starts from its defaults, and the web app and its tests
 * read the same type and defaults.
 */
import type { PasswordRules } from './security.js';
import { Type, type Static } from 'typebox';
import { DISPLAY_NAME, HOME_ADDRESS, LAYOUT_NAME, SITE_NAME_MAX } from './admin-rules.js';
import { CAPTCHA_TYPES } from './captcha.js';

/** What a value must be, for the message when it is not (`PORTAL_RUNTIME_CONFIG.x must be …`). */
const expected = (text: string) => ({ expected: text });
const SITE_NAME_RULE =
  `a name of at most ${SITE_NAME_MAX} characters: letters, digits, single spaces and · & ' ( ) _ - . , ， 、, ` +
  'beginning with a letter or a digit, with no link or domain name';
const LAYOUT_RULE = 'a word of at most 32 letters, digits, _ or -';

export const RuntimeSwitches = Type.Object(
  {
    /**
     * The site's name (also SITE_NAME). A tenant sets its own (ADR 036), so it is a short name that
     * can carry no link: the same rule for a tenant, `PORTAL_RUNTIME_CONFIG` and `SITE_NAME`.
     */
    siteName: Type.String({
      minLength: 1,
      maxLength: SITE_NAME_MAX,
      pattern: DISPLAY_NAME,
      default: '企业服务门户',
      description: 'site name (also SITE_NAME)',
      ...expected(SITE_NAME_RULE),
    }),
    /** The site name in English mode; empty shows `siteName` (also SITE_NAME_EN). */
    siteNameEn: Type.String({
      maxLength: SITE_NAME_MAX,
      pattern: `${DISPLAY_NAME}|^$`,
      default: 'Enterprise Service Portal',
      ...expected(`empty, or ${SITE_NAME_RULE}`),
    }),
    logo: Type.String({ default: '' }),
    /** Layout theme; empty is the default side-menu layout. */
    theme: Type.String({ maxLength: 32, pattern: LAYOUT_NAME, default: '', ...expected(LAYOUT_RULE) }),
    apptheme: Type.String({ maxLength: 32, pattern: LAYOUT_NAME, default: '', ...expected(LAYOUT_RULE) }),
    registerTheme: Type.String({ maxLength: 32, pattern: LAYOUT_NAME, default: '', ...expected(LAYOUT_RULE) }),
    noticeEnabled: Type.Boolean({ default: false }),
    registerWithoutSms: Type.Boolean({ default: false }),
    /** SMS verification on registration (docs/product/overview.md#runtime-switches `notsms`, default on). */
    notsms: Type.Boolean({ default: true }),
    /** The user drop-down offers 切换工作台. */
    workbenchEnabled: Type.Boolean({ default: true }),
    /** The user drop-down offers 切换应用 (docs/product/permissions.md#switching: shown only when configured). */
    appSwitch: Type.Boolean({ default: false }),
    keepAlive: Type.Boolean({ default: false }),
    /** At most this many hidden tabs keep their page alive; the least recently used is let go. */
    keepAliveMax: Type.Integer({ minimum: 0, maximum: 100, default: 10, ...expected('a whole number from 0 to 100') }),
    /**
     * At most this many sub-applications stay alive (each while any of its tabs is open); opening
     * one more lets go of the least recently used.
     */
    microAppMax: Type.Integer({ minimum: 1, maximum: 20, default: 3, ...expected('a whole number from 1 to 20') }),
    languageSwitch: Type.Boolean({ default: false }),
    /** The header shows a back-to-portal link; without `domianURL` it warns 园区首页地址未配置！. */
    homePortalLink: Type.Boolean({ default: false }),
    /** Home-portal (park) address the back-to-portal link opens. */
    domianURL: Type.String({
      maxLength: 1024,
      pattern: HOME_ADDRESS,
      default: '',
      ...expected('empty or an http(s) address of at most 1024 characters'),
    }),
    backurl: Type.String({ default: '' }),
    appBaseUrl: Type.String({ default: '' }),
    baseurl: Type.String({ default: '' }),
    publicpath: Type.String({ pattern: '^/([\\w-]+/)*$', default: '/center/', ...expected('a path like "/center/"') }),
    /** Single sign-on server base URL; empty means the standalone login form (also SSO_URL). */
    ssoUrl: Type.String({ default: '' }),
    /** Default tenant code when none is given in the address (also DEFAULT_TENANT). */
    defaultTenantCode: Type.String({ default: 'demo' }),
    storagePrefix: Type.String({ default: 'portal_' }),
    requestTimeoutMs: Type.Number({ default: 15_000 }),
    phonePattern: Type.String({ default: '' }),
    defaultLocale: Type.Enum(['zh-CN', 'en-US'], { default: 'zh-CN', ...expected('"zh-CN" or "en-US"') }),
    /** Which behavioural captcha the SPA shows when the server asks for one (getCaptchaType `anji`). */
    captchaType: Type.Enum(CAPTCHA_TYPES, {
      default: 'blockPuzzle',
      ...expected(`one of ${CAPTCHA_TYPES.join(', ')}`),
    }),
    /** AJ-Captcha's display mode for it: `pop` (a dialog on submit) or `fixed` (inline in the form). */
    captchaMode: Type.Enum(['pop', 'fixed'], { default: 'pop', ...expected('"pop" or "fixed"') }),
  },
  { additionalProperties: false },
);

export type RuntimeSwitches = Static<typeof RuntimeSwitches>;

/**
 * What config.js carries: the switches, the request-signing secret and the largest upload the
 * server takes (`UPLOAD_MAX_BYTES`, so a form can say it) (docs/product/overview.md#runtime-switches).
 */
export type RuntimeConfig = RuntimeSwitches & {
  signSecret: string;
  uploadMaxBytes: number;
  /** The tenant's password rules (its security policy's password keys; absent: the defaults), what new-password fields check. */
  passwordRules?: PasswordRules;
};

/** The switches' defaults, read from the schema. */
export const RUNTIME_DEFAULTS: RuntimeSwitches = Object.fromEntries(
  Object.entries(RuntimeSwitches.properties).map(([key, schema]) => [key, (schema as { default?: unknown }).default]),
) as RuntimeSwitches;

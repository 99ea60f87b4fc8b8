/**
 * The operators' API's plain rules (ADR 031): codes, patterns and lists without any schema, so
 * that a page needing only these does not load TypeBox and every schema with them.
 */
import type { RuntimeSwitches } from './runtime-config.js';

/** The permission code of the operators' console (a tenant operator's current role holds it). */
export const OPERATOR_PERMISSION = 'system:manage';

/**
 * The permission codes that administer the tenant (ADR 036): each reaches past its holder's own
 * enterprise, to the tenant's configuration or to what every member sees or runs — the console
 * (`system:manage`), scripts on the portal's origin (`microapp:manage`), device credentials
 * (`device:manage`), notices to everyone (`notice:publish`), pages in everyone's menu
 * (`page:design`), the park's public alerts (`alert:handle`) and every member's repair requests
 * (`repair:handle`, the park services' own). The default role, which every
 * newcomer gets, never holds one; their type and status are fixed (status 0 would give one to
 * everybody).
 */
export const OPERATOR_CODES = [
  OPERATOR_PERMISSION,
  'microapp:manage',
  'device:manage',
  'notice:publish',
  'page:design',
  'alert:handle',
  'repair:handle',
] as const;
export type OperatorCode = (typeof OPERATOR_CODES)[number];
export const isOperatorCode = (code: string): code is OperatorCode =>
  (OPERATOR_CODES as readonly string[]).includes(code);

export const TENANT_CODE = '^[a-z][a-z0-9-]{1,31}$';

export const USER_STATES = ['active', 'disabled', 'locked'] as const;

export const ROLE_CODE = '^[a-z][a-z0-9_]{1,31}$';

export const PERMISSION_CODE = '^[A-Za-z][A-Za-z0-9_:.-]{0,63}$';

/**
 * A menu entry's path: absolute, or relative to its parent's (docs/product/screens.md#menu-routes); never `//` or a scheme
 * (`javascript:`) first, never `..`; `:name` segments are route parameters.
 */
export const MENU_PATH = '^(?!//)(?![A-Za-z][A-Za-z0-9+.-]*:)(?!.*\\.\\.)[A-Za-z0-9/_:.-]{1,200}$';

export const NAMED_CODE = '^[A-Za-z][A-Za-z0-9_]{1,31}$';

/**
 * A name a tenant shows as its own (the site's name; ADR 036), for a JSON Schema `pattern` (read with
 * the `u` flag, as Ajv and TypeBox do): letters of any script, digits, their combining marks, single
 * spaces between words and the marks `· & ' ’ ( ) （ ） _ - . , ， 、`; it begins with a letter or a
 * digit and ends with one, a bracket or a full stop. No control, format (bidi, zero-width) or
 * separator character, no `:` `/` `@`, and no full stop between two letters or digits, so it can't
 * carry a link or a domain name that a phone would turn into one.
 */
export const DISPLAY_NAME =
  "^(?![\\s\\S]*(?:[\\p{L}\\p{N}]\\.[\\p{L}\\p{N}]| {2}))[\\p{L}\\p{N}](?:[\\p{L}\\p{M}\\p{N} ·&'’()（）_\\-.,，、]*[\\p{L}\\p{M}\\p{N})）.])?$";
/** The longest site name (in characters) a tenant or the installation may give. */
export const SITE_NAME_MAX = 60;
/** Whether `text` is a display name of at most `max` characters (the rule above, for forms). */
export const isDisplayName = (text: string, max = SITE_NAME_MAX): boolean =>
  [...text].length <= max && new RegExp(DISPLAY_NAME, 'u').test(text);

/** A layout's name (`theme`, `apptheme`, `registerTheme`): a short word, never markup or an address. */
export const LAYOUT_NAME = '^[A-Za-z0-9_-]{0,32}$';

/** The park's home address (`domianURL`): empty, or an http(s) address without spaces or quotes. */
export const HOME_ADDRESS = '^(?:|https?://[^\\s"\'<>\\\\]+)$';

/** The address of an image a tenant uploaded, which the portal serves inline (its logo). */
export const UPLOADED_IMAGE = '/api/resources/logos/[0-9a-f-]{36}';

/** A tenant's logo: empty, or one of its uploads the portal serves (never an outside image). */
export const TENANT_LOGO = `^(?:|${UPLOADED_IMAGE})$`;

/** The switches of docs/product/overview.md#runtime-switches a tenant sets for itself; the rest belong to the installation. */
export const TENANT_SWITCHES = [
  'siteName',
  'siteNameEn',
  'logo',
  'theme',
  'apptheme',
  'registerTheme',
  'noticeEnabled',
  'registerWithoutSms',
  'notsms',
  'workbenchEnabled',
  'appSwitch',
  'keepAlive',
  'languageSwitch',
  'homePortalLink',
  'domianURL',
  'defaultLocale',
] as const satisfies readonly (keyof RuntimeSwitches)[];
export type TenantSwitch = (typeof TENANT_SWITCHES)[number];

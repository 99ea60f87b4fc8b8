/**
 * The operators' API's plain rules (issue 20): codes, patterns and lists without any schema, so
 * that a page needing only these does not load TypeBox and every schema with them.
 */
import type { RuntimeSwitches } from './runtime-config.js';

/** The permission code of the operators' console (a tenant operator's current role holds it). */
export const OPERATOR_PERMISSION = 'system:manage';

export const TENANT_CODE = '^[a-z][a-z0-9-]{1,31}$';

export const USER_STATES = ['active', 'disabled', 'locked'] as const;

export const ROLE_CODE = '^[a-z][a-z0-9_]{1,31}$';

export const PERMISSION_CODE = '^[A-Za-z][A-Za-z0-9_:.-]{0,63}$';

/**
 * A menu entry's path: absolute, or relative to its parent's (spec §2); never `//` or a scheme
 * (`javascript:`) first, never `..`; `:name` segments are route parameters.
 */
export const MENU_PATH = '^(?!//)(?![A-Za-z][A-Za-z0-9+.-]*:)(?!.*\\.\\.)[A-Za-z0-9/_:.-]{1,200}$';

export const NAMED_CODE = '^[A-Za-z][A-Za-z0-9_]{1,31}$';

/** The switches of spec §1 a tenant sets for itself; the rest belong to the installation. */
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

/**
 * The tenant settings form's pure part: which switches a tenant has set, the value each field
 * shows (the tenant's, else the installation's), and the body of `PUT /api/admin/settings` (only
 * the switches not following the installation).
 */
import {
  HOME_ADDRESS,
  SITE_NAME_MAX,
  TENANT_SWITCHES,
  isDisplayName,
  type TenantSettings,
  type TenantSettingsView,
  type TenantSwitch,
} from '@portal/contracts';

export type SettingValues = Required<TenantSettings>;

export interface SettingsState {
  values: SettingValues;
  /** Switches that follow the installation's value (absent from what the tenant set). */
  follow: ReadonlySet<TenantSwitch>;
}

export function initialState(view: TenantSettingsView): SettingsState {
  const follow = new Set<TenantSwitch>();
  const values = { ...view.defaults } as Record<TenantSwitch, unknown>;
  for (const key of TENANT_SWITCHES) {
    const set = (view.settings as Record<string, unknown>)[key];
    if (set === undefined) follow.add(key);
    else values[key] = set;
  }
  return { values: values as SettingValues, follow };
}

/** Follows the installation again (showing its value), or stops following, keeping what is shown. */
export function setFollow(
  state: SettingsState,
  view: TenantSettingsView,
  key: TenantSwitch,
  following: boolean,
): SettingsState {
  const follow = new Set(state.follow);
  if (following) follow.add(key);
  else follow.delete(key);
  const values = following ? { ...state.values, [key]: view.defaults[key] } : state.values;
  return { values, follow };
}

export function setValue<K extends TenantSwitch>(state: SettingsState, key: K, value: SettingValues[K]): SettingsState {
  const follow = new Set(state.follow);
  follow.delete(key);
  return { values: { ...state.values, [key]: value }, follow };
}

/** What the tenant sets: every switch not following the installation, trimmed where it is text. */
export function settingsBody(state: SettingsState): TenantSettings {
  const body: Record<string, unknown> = {};
  for (const key of TENANT_SWITCHES) {
    if (state.follow.has(key)) continue;
    const v = state.values[key];
    body[key] = typeof v === 'string' ? v.trim() : v;
  }
  return body as TenantSettings;
}

/** The longest text the form lets each field take (the settings schema's lengths). */
export const SETTING_MAX_LENGTH: Partial<Record<TenantSwitch, number>> = {
  siteName: SITE_NAME_MAX,
  siteNameEn: SITE_NAME_MAX,
  domianURL: 1024,
};

/** Why a field's value would be refused, as a message key of `admin.settings.rules`. */
export type SettingIssue = 'required' | 'tooLong' | 'name' | 'url';

/**
 * The settings schema's rules for the texts the form edits (ADR 036), checked as the server checks
 * them, so the operator sees why before saving; null when the value is fine or the field follows
 * the installation.
 */
export function settingIssue(state: SettingsState, key: TenantSwitch): SettingIssue | null {
  if (state.follow.has(key)) return null;
  const value = state.values[key];
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const max = SETTING_MAX_LENGTH[key];
  if (max !== undefined && [...text].length > max) return 'tooLong';
  if (key === 'siteName' && !text) return 'required';
  if ((key === 'siteName' || key === 'siteNameEn') && text && !isDisplayName(text)) return 'name';
  if (key === 'domianURL' && !new RegExp(HOME_ADDRESS).test(text)) return 'url';
  return null;
}

/** Every field whose value the server would refuse. */
export const settingIssues = (state: SettingsState): [TenantSwitch, SettingIssue][] =>
  TENANT_SWITCHES.flatMap((key) => {
    const issue = settingIssue(state, key);
    return issue ? [[key, issue] as [TenantSwitch, SettingIssue]] : [];
  });

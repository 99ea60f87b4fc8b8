/**
 * The tenant settings form's pure part: which switches a tenant has set, the value each field
 * shows (the tenant's, else the installation's), and the body of `PUT /api/admin/settings` (only
 * the switches not following the installation).
 */
import { TENANT_SWITCHES, type TenantSettings, type TenantSettingsView, type TenantSwitch } from '@portal/contracts';

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

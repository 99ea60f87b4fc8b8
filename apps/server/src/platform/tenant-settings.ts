/**
 * Each tenant's runtime switches (ADR 031): the installation's (`PORTAL_RUNTIME_CONFIG`, ADR 018)
 * with what the tenant set for itself on top (tenants.settings, only the keys of
 * TENANT_SWITCHES). A park's site name, until its operator sets one, is the tenant's own name (in
 * English its English name, if it has one), never the installation's (ADR 046). Read per tenant and kept for a minute; a change is announced to every
 * instance, so config.js and the server's own uses (registration's SMS step, the SMS text) follow
 * it without a restart.
 */
import {
  TENANT_SWITCHES,
  isDisplayName,
  isTenantCode,
  TenantSettings as TenantSettingsSchema,
  type RuntimeConfig,
  type TenantSettings,
  type TenantSwitch,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { Db } from '../db/client.js';
import { tenants } from '../db/schema.js';
import type { InvalidationBus } from './invalidation.js';
import { createLocalCache } from './local-cache.js';

export interface TenantSettingsStore {
  /** The runtime configuration a tenant's pages get, by its code; the installation's for an unknown code. */
  configOf(code: string): Promise<RuntimeConfig>;
  /** The same, by the tenant's id. */
  configOfId(id: number): Promise<RuntimeConfig>;
  /** What the tenant set itself. */
  stored(id: number): Promise<TenantSettings>;
  /** What each switch the tenant leaves unset falls back to: the installation's, its site name its own. */
  fallbacks(id: number): Promise<Pick<RuntimeConfig, TenantSwitch>>;
  /** Replaces what the tenant set; false for an unknown tenant. */
  save(id: number, settings: TenantSettings): Promise<boolean>;
}

const rules = TenantSettingsSchema.properties as Record<string, TSchema>;

/**
 * Only the tenant's own keys, each as the settings schema takes it: anything else a row may hold,
 * and a value stored before a rule existed (a site name with a link, ADR 036), is never served;
 * the installation's value applies instead.
 */
export function tenantOwn(raw: Record<string, unknown> | null | undefined): TenantSettings {
  const own: Record<string, unknown> = {};
  for (const key of TENANT_SWITCHES) {
    if (raw && raw[key] !== undefined && Value.Check(rules[key]!, raw[key])) own[key] = raw[key];
  }
  return own as TenantSettings;
}

/**
 * The site name a park has before its operator names it: its own name, in English its English name
 * (empty: the Chinese one shows); a name the operator set is shown in English as well until they
 * set an English one. The platform tenant's pages are the installation's, named by
 * `SITE_NAME`; a name outside the site-name rule is not served.
 */
export function ownSiteName(
  tenant: { name: string; translations: { en?: { name?: string } }; platform: boolean },
  own: TenantSettings,
): Partial<Pick<RuntimeConfig, 'siteName' | 'siteNameEn'>> {
  if (tenant.platform) return {};
  // A name the operator set without an English one shows in English too, not the installation's.
  if (own.siteName !== undefined || !isDisplayName(tenant.name))
    return own.siteName !== undefined ? { siteNameEn: '' } : {};
  const en = tenant.translations.en?.name ?? '';
  return { siteName: tenant.name, siteNameEn: en && isDisplayName(en) ? en : '' };
}

/** What a tenant's settings and its own site name are read from. */
const siteColumns = {
  settings: tenants.settings,
  name: tenants.name,
  translations: tenants.translations,
  platform: tenants.platform,
};

export function createTenantSettings(db: Db, runtime: RuntimeConfig, bus: InvalidationBus): TenantSettingsStore {
  const cache = createLocalCache<RuntimeConfig>({ ttlMs: 60_000, max: 1_000 });
  bus.subscribe((e) => {
    if (e.kind === 'tenant' || e.kind === 'all') cache.clear();
  });
  const read = async (key: string, where: ReturnType<typeof eq>): Promise<RuntimeConfig> => {
    const hit = cache.get(key);
    if (hit) return hit;
    const version = cache.version;
    const [row] = await db.select(siteColumns).from(tenants).where(where);
    const own = tenantOwn(row?.settings);
    const config = { ...runtime, ...(row ? ownSiteName(row, own) : {}), ...own };
    // Not kept when a change was announced meanwhile; an unknown tenant is not kept at all, so
    // made-up codes cannot crowd the real ones out.
    if (row) cache.set(key, config, { version });
    return config;
  };
  return {
    // A code no tenant can have (from an address or a cookie) is an unknown tenant's, unread.
    configOf: async (code) => (isTenantCode(code) ? read(`code:${code}`, eq(tenants.code, code)) : runtime),
    configOfId: (id) => read(`id:${id}`, eq(tenants.id, id)),
    async stored(id) {
      const [row] = await db.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, id));
      return tenantOwn(row?.settings);
    },
    async fallbacks(id) {
      const [row] = await db.select(siteColumns).from(tenants).where(eq(tenants.id, id));
      const config = { ...runtime, ...(row ? ownSiteName(row, tenantOwn(row.settings)) : {}) };
      return Object.fromEntries(TENANT_SWITCHES.map((k) => [k, config[k]])) as Pick<RuntimeConfig, TenantSwitch>;
    },
    async save(id, settings) {
      const done = await db
        .update(tenants)
        .set({ settings: tenantOwn(settings) })
        .where(eq(tenants.id, id))
        .returning({ id: tenants.id });
      if (done.length === 0) return false;
      cache.clear();
      await bus.publish({ kind: 'tenant', tenant: id });
      return true;
    },
  };
}

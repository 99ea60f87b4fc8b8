import {
  ResultCode,
  type MicroApp,
  type MicroAppInput,
  type RegisteredApp,
  type SubManagement,
} from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import { localized, type Lang } from '../../platform/i18n.js';
import type { InvalidationBus } from '../../platform/invalidation.js';
import { createLocalCache } from '../../platform/local-cache.js';
import type { PermissionGuard } from '../../platform/permissions.js';
import type { ActiveSession } from '../../platform/session.js';
import type { MicroAppsRepository } from './micro-apps.repository.js';

/** The permission code (spec §6) that lets operators register and remove applications. */
export const MANAGE_PERMISSION = 'microapp:manage';

/** Service type 0: a sub-application the host loads; 1: a service shown in a frame. */
export const SUB_APP = 0;

/** What a document of a tenant may load and frame beyond its own origin (the content security policy). */
export interface TenantOrigins {
  /** Origins of sub-applications: their scripts, styles, images, fonts and calls. */
  apps: string[];
  /** Origins of framed services (and of sub-applications, which may frame their own pages). */
  frames: string[];
}

/**
 * An entry as stored, and its origin (null for a path on the portal's own origin). Only http(s),
 * without credentials or a fragment; a path starts with one `/`.
 */
export function readEntry(raw: string): { entry: string; origin: string | null } {
  const text = raw.trim();
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(text)) throw new AppError(ResultCode.BAD_REQUEST, 'entryInvalid');
  if (text.startsWith('/') && !text.startsWith('//')) {
    const url = new URL(text, 'http://portal.invalid');
    return { entry: `${url.pathname}${url.search}`, origin: null };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError(ResultCode.BAD_REQUEST, 'entryInvalid');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.hash) {
    throw new AppError(ResultCode.BAD_REQUEST, 'entryInvalid');
  }
  return { entry: url.href, origin: url.origin };
}

export interface MicroAppsServiceDeps {
  repo: MicroAppsRepository;
  guard: PermissionGuard;
  bus: InvalidationBus;
}

/**
 * The tenant's registered applications (spec §3, §7; ADR 025): the list the host loads at session
 * start, the park's home page, the operators' registration, and the origins a document of the
 * tenant may load and frame (cached per tenant code; a change is announced to every instance).
 */
export function createMicroAppsService({ repo, guard, bus }: MicroAppsServiceDeps) {
  const origins = createLocalCache<TenantOrigins>({ ttlMs: 60_000, max: 1_000 });
  bus.subscribe((e) => {
    if (e.kind === 'apps' || e.kind === 'all') origins.clear();
  });

  const changed = async (tenantId: number) => {
    origins.clear();
    await bus.publish({ kind: 'apps', tenant: tenantId });
  };

  return {
    /** selectAllByTenant: the caller's own tenant only. */
    async list(session: ActiveSession, tenantId: number, lang: Lang): Promise<MicroApp[]> {
      if (tenantId !== session.tenantId) throw new AppError(ResultCode.NO_PERMISSION, 'tenantNotSelf');
      return (await repo.list(session.tenantId)).map((r) => ({
        name: localized(lang, r, 'name'),
        code: r.code,
        entry: r.entry,
        serviceType: r.serviceType,
      }));
    },

    async subManagement(session: ActiveSession): Promise<SubManagement> {
      return { homeUrl: await repo.homeUrl(session.tenantId) };
    },

    async registered(session: ActiveSession, lang: Lang): Promise<RegisteredApp[]> {
      await guard.require(session, MANAGE_PERMISSION);
      return (await repo.list(session.tenantId)).map((r) => ({
        id: String(r.id),
        code: r.code,
        name: localized(lang, r, 'name'),
        entry: r.entry,
        serviceType: r.serviceType,
        sort: r.sort,
        origin: readEntry(r.entry).origin ?? 'self',
      }));
    },

    async save(session: ActiveSession, input: MicroAppInput): Promise<string> {
      await guard.require(session, MANAGE_PERMISSION);
      const { entry } = readEntry(input.entry);
      const id = await repo.save({
        tenantId: session.tenantId,
        code: input.code,
        name: input.name.trim(),
        entry,
        serviceType: input.serviceType,
        sort: input.sort ?? 0,
        translations: input.translations ?? {},
      });
      await changed(session.tenantId);
      return String(id);
    },

    async remove(session: ActiveSession, id: number): Promise<void> {
      await guard.require(session, MANAGE_PERMISSION);
      if (!(await repo.remove(session.tenantId, id))) throw new AppError(ResultCode.NOT_FOUND, 'appUnknown');
      await changed(session.tenantId);
    },

    /** The origins of the tenant's registered applications: what its pages may frame. */
    async frameOrigins(tenantId: number): Promise<string[]> {
      const origins = (await repo.list(tenantId)).map((r) => readEntry(r.entry).origin);
      return origins.filter((o): o is string => o !== null);
    },

    /** The origins a document of the tenant `code` names may use; none for an unknown code. */
    async originsOf(code: string): Promise<TenantOrigins> {
      const cached = origins.get(code);
      if (cached) return cached;
      const version = origins.version;
      const apps = new Set<string>();
      const frames = new Set<string>();
      for (const row of await repo.entriesOfTenant(code)) {
        const origin = readEntry(row.entry).origin;
        if (!origin) continue;
        frames.add(origin);
        if (row.serviceType === SUB_APP) apps.add(origin);
      }
      const value = { apps: [...apps].sort(), frames: [...frames].sort() };
      origins.set(code, value, { version });
      return value;
    },
  };
}

export type MicroAppsService = ReturnType<typeof createMicroAppsService>;

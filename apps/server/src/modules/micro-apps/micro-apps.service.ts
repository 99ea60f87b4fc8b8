import {
  OPERATOR_PERMISSION,
  ResultCode,
  type MicroApp,
  type MicroAppInput,
  type RegisteredApp,
  type SubManagement,
} from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import { localized, type Lang } from '../../platform/i18n.js';
import { rowId, type RequestedId } from '../../platform/ids.js';
import type { InvalidationBus } from '../../platform/invalidation.js';
import { createLocalCache } from '../../platform/local-cache.js';
import type { PermissionGuard } from '../../platform/permissions.js';
import { isPlainOrigin } from '../../platform/security-headers.js';
import type { ActiveSession } from '../../platform/session.js';
import type { MicroAppsRepository } from './micro-apps.repository.js';

/** The permission code (docs/product/permissions.md#action-codes) that lets operators register and remove applications. */
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
 * without credentials or a fragment, at a plain host name (its origin goes into the documents'
 * policy, where `*` is a wildcard); a path starts with one `/`.
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
  if (!isPlainOrigin(url.origin)) throw new AppError(ResultCode.BAD_REQUEST, 'entryHostInvalid');
  return { entry: url.href, origin: url.origin };
}

/**
 * The origin of a stored entry, or null: for a path on the portal's own origin, and for an entry
 * stored before a rule existed that breaks it now (it reaches no policy and no allow-list).
 */
export function storedOrigin(entry: string): string | null {
  try {
    return readEntry(entry).origin;
  } catch {
    return null;
  }
}

export interface MicroAppsServiceDeps {
  repo: MicroAppsRepository;
  guard: PermissionGuard;
  bus: InvalidationBus;
}

/**
 * The tenant's registered applications (docs/product/data.md#micro-app-entry, docs/product/calls.md#call-list; ADR 025): the list the host loads at session
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
        // An entry stored before a rule that it breaks reaches no allow-list: no origin.
        origin: r.entry.startsWith('/') ? 'self' : (storedOrigin(r.entry) ?? ''),
      }));
    },

    /**
     * Registers a new code, or changes a registered one. A sub-application's script runs in every
     * user's session on the portal's origin, so replacing an entry (its address or its type) needs
     * `system:manage` besides `microapp:manage`, and the audit keeps what it was (ADR 036).
     */
    async save(session: ActiveSession, input: MicroAppInput, ip: string): Promise<string> {
      await guard.require(session, MANAGE_PERMISSION);
      const { entry } = readEntry(input.entry);
      const saved = await repo.save(
        {
          tenantId: session.tenantId,
          code: input.code,
          name: input.name.trim(),
          entry,
          serviceType: input.serviceType,
          sort: input.sort ?? 0,
          translations: input.translations ?? {},
        },
        { mayReplace: await guard.allows(session, OPERATOR_PERMISSION), userId: session.userId, ip },
      );
      if (saved === 'replaceRefused')
        throw new AppError(ResultCode.NO_PERMISSION, 'appReplaceNeedsOperator', { code: input.code });
      await changed(session.tenantId);
      return String(saved);
    },

    /** Removes an application: like a replacement (its code could be registered anew), an operator's. */
    async remove(session: ActiveSession, id: RequestedId): Promise<void> {
      await guard.require(session, MANAGE_PERMISSION);
      await guard.require(session, OPERATOR_PERMISSION);
      if (!(await repo.remove(session.tenantId, rowId(id)))) throw new AppError(ResultCode.NOT_FOUND, 'appUnknown');
      await changed(session.tenantId);
    },

    /** The origins of the tenant's registered applications: what its pages may frame. */
    async frameOrigins(tenantId: number): Promise<string[]> {
      const origins = (await repo.list(tenantId)).map((r) => storedOrigin(r.entry));
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
        const origin = storedOrigin(row.entry);
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

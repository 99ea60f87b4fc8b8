import { ResultCode, type ApplicationItem, type RoleItem, type UserInfo, type WorkbenchItem } from '@portal/contracts';
import { AppError, errors } from '../../platform/errors.js';
import { optionalRowId, rowId } from '../../platform/ids.js';
import type { InvalidationBus } from '../../platform/invalidation.js';
import { localized, type Lang } from '../../platform/i18n.js';
import { createLocalCache } from '../../platform/local-cache.js';
import { NICKNAME_MAX, acceptPersonName } from '../../platform/names.js';
import type { ActiveSession } from '../../platform/session.js';
import type { MembersRepository } from './members.repository.js';

const str = (v: number | string | null) => (v === null ? null : String(v));

const refuse = (key: 'roleNotHeld' | 'appNotGranted' | 'workbenchNotHeld' | 'notOwnAccount') =>
  new AppError(ResultCode.NO_PERMISSION, key);

type Who = { tenantId: number; userId: number };
/** Who asks, and in which language the names in the answer are (ADR 020). */
type Asker = Who & { lang: Lang };
/** What is cached per user and enterprise: everything but the session's own context. */
type Profile = Omit<UserInfo, 'roleId' | 'applyId' | 'workbenchId'>;

export interface MembersServiceDeps {
  repo: MembersRepository;
  bus: Pick<InvalidationBus, 'subscribe' | 'publish'>;
  /** How long a profile may be served from memory (0: always read it). */
  cacheMs: number;
}

export function createMembersService({ repo, bus, cacheMs }: MembersServiceDeps) {
  // "userId:enterpriseId:lang" → profile; changes to a user are announced on the bus.
  const profiles = createLocalCache<Profile>({ ttlMs: cacheMs, max: 50_000 });
  bus.subscribe((e) => {
    if (e.kind === 'all') profiles.clear();
    else if (e.kind === 'user') profiles.deleteWhere((p) => p.userId === String(e.id));
  });

  return {
    /** The profile (cached per user and enterprise) with the session's current context. */
    async info(session: ActiveSession, lang: Lang): Promise<UserInfo> {
      const current = {
        roleId: str(session.roleId),
        applyId: str(session.applicationId),
        workbenchId: str(session.workbenchId),
      };
      const key = `${session.userId}:${session.enterpriseId}:${lang}`;
      const cached = profiles.get(key);
      if (cached) return { ...cached, ...current };
      const version = profiles.version;
      const row = await repo.userInfo(session.tenantId, session.userId, session.enterpriseId);
      if (!row) throw errors.unauthorized();
      const info: Profile = {
        username: row.username,
        name: row.nickname || localized(lang, row, 'name'),
        userId: String(row.userId),
        groupId: str(row.groupId),
        groupName:
          row.groupName === null
            ? null
            : localized(lang, { name: row.groupName, translations: row.groupTranslations }, 'name'),
        tenantId: String(row.tenantId),
        tenantCode: row.tenantCode,
        tenantName: localized(lang, { name: row.tenantName, translations: row.tenantTranslations }, 'name'),
        image: row.image,
        defaultApplyCode: row.defaultApplyCode,
        defaultApplyId: str(row.defaultApplyId),
        defaultRoleId: str(row.defaultRoleId),
        defaultWorkbenchId: str(row.defaultWorkbenchId),
        defaultEntId: str(row.defaultEntId),
        defaultEntGuId: row.defaultEntGuId,
        homeUri: row.homeUri,
      };
      profiles.set(key, info, { version });
      return { ...info, ...current };
    },

    /** The roles the caller holds (getUserRolesNew); asking for another user's is refused. */
    async roles(who: Asker, userId?: number | string): Promise<RoleItem[]> {
      const asked = optionalRowId(userId);
      if (asked !== null && asked !== who.userId) throw refuse('notOwnAccount');
      return (await repo.roles(who.tenantId, who.userId)).map((r) => ({
        id: String(r.id),
        title: localized(who.lang, r, 'title'),
      }));
    },

    async applications(who: Asker): Promise<ApplicationItem[]> {
      return (await repo.applications(who.tenantId, who.userId)).map((a) => ({
        id: String(a.id),
        appCode: a.code,
        appName: localized(who.lang, a, 'name'),
      }));
    },

    async workbenches(who: Asker): Promise<WorkbenchItem[]> {
      return (await repo.workbenches(who.tenantId, who.userId)).map((w) => ({
        id: String(w.id),
        appCode: w.code,
        appName: localized(who.lang, w, 'name'),
      }));
    },

    /** checkAppCodeAuth: whether the caller is granted the application with this code. */
    async holdsApplication(who: Who, code: string): Promise<boolean> {
      return (await repo.applications(who.tenantId, who.userId)).some((a) => a.code === code);
    },

    async applicationName(who: Asker, code: string): Promise<string> {
      const app = await repo.application(who.tenantId, code);
      if (app === null) throw new AppError(ResultCode.NOT_FOUND, 'appUnknown');
      return localized(who.lang, app, 'name');
    },

    /** The caller's own nickname only (docs/product/validation.md#account: required). */
    async setNickname(who: Who, userId: number | string, nickName: string): Promise<void> {
      if (rowId(userId) !== who.userId) throw refuse('notOwnAccount');
      const nick = acceptPersonName(nickName, {
        required: 'nicknameRequired',
        max: NICKNAME_MAX,
        tooLong: 'nicknameTooLong',
      });
      await repo.setNickname(who.tenantId, who.userId, nick);
      await bus.publish({ kind: 'user', id: who.userId });
    },

    /** Default role and workbench for the next login: only ones the caller holds. */
    async setDefaultLogin(
      who: Who,
      d: { defaultRoleId?: number | string; defaultWorkbenchCode?: string },
    ): Promise<void> {
      const roleId = optionalRowId(d.defaultRoleId);
      let workbenchId: number | null = null;
      if (roleId !== null) {
        if (!(await repo.roles(who.tenantId, who.userId)).some((r) => r.id === roleId)) {
          throw refuse('roleNotHeld');
        }
      }
      if (d.defaultWorkbenchCode) {
        const bench = (await repo.workbenches(who.tenantId, who.userId)).find((w) => w.code === d.defaultWorkbenchCode);
        if (!bench) throw refuse('workbenchNotHeld');
        workbenchId = bench.id;
      }
      await repo.setDefaults(who.tenantId, who.userId, { roleId, workbenchId });
      await bus.publish({ kind: 'user', id: who.userId });
    },

    /** Default application for the next login: only one the caller is granted. */
    async setDefaultApply(who: Who, defaultApplyId: number | string): Promise<void> {
      const id = rowId(defaultApplyId);
      if (!(await repo.applications(who.tenantId, who.userId)).some((a) => a.id === id)) {
        throw refuse('appNotGranted');
      }
      await repo.setDefaults(who.tenantId, who.userId, { applicationId: id });
      await bus.publish({ kind: 'user', id: who.userId });
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;

/**
 * Session control and login history (ADR 052): a person's sign-ins (list, end one, end all others),
 * the tenant's online users for operators (list, end one or all of a user's), the login history
 * (written by every sign-in path through `recordLoginEvent`, read by the person and by operators,
 * exported as CSV, kept the tenant's `loginHistoryDays`), and the notices that tell a person of a
 * new device or a changed factor. Ending a sign-in revokes its portal sessions (every instance hears
 * it on the bus; live streams of them close) and ends its sign-on session through the sign-on
 * service, which sends CAS single logout and OpenID back-channel logout.
 */
import {
  LOGIN_HISTORY_EXPORT_MAX,
  LOGIN_OUTCOME_LABELS,
  LOGIN_VIA_LABELS,
  PARK_UTC_OFFSET_MS,
  ResultCode,
  type LoginEvent,
  type LoginHistoryExport,
  type LoginHistoryPage,
  type LoginOutcome,
  type LoginVia,
  type SecurityPolicy,
  type SignIn,
} from '@portal/contracts';
import { csvOf } from '../../platform/csv.js';
import { AppError } from '../../platform/errors.js';
import type { Lang } from '../../platform/i18n.js';
import { rowId } from '../../platform/ids.js';
import type { InvalidationBus } from '../../platform/invalidation.js';
import type { ActiveSession } from '../../platform/session.js';
import { realTime } from '../../platform/times.js';
import type {
  HistoryFilter,
  HistoryRow,
  LoginEventInput,
  SessionsRepository,
  SignInRow,
} from './sessions.repository.js';
import { deviceKey, deviceOf } from './user-agent.js';

/** Without `from`, a history read covers this many days back. */
export const HISTORY_DEFAULT_DAYS = 30;
/** Rows one housekeeping pass deletes per tenant (the next pass takes the rest). */
const PRUNE_BATCH = 10_000;
/** The retention of attempts that named no tenant. */
const NO_TENANT_DAYS = 30;
/** Sessions whose last write of last_seen_at this instance remembers. */
const SEEN_REMEMBERED = 50_000;

/**
 * An operator's call (the admin module's gate takes it as is, app.ts wires it): the session, the
 * tenant it names (`?tenant=`, a platform operator's choice), and where to say the tenant acted on.
 */
export interface Caller {
  session: ActiveSession;
  tenant?: string | null | undefined;
  actsOn?: ((tenantId: number) => void) | undefined;
}

export interface SessionsDeps {
  repo: SessionsRepository;
  bus: Pick<InvalidationBus, 'publish'>;
  /** The console's gate: the tenant an operator acts on, or the refusal (40303). */
  operatorOf: (caller: Caller) => Promise<{ tenantId: number }>;
  /** The tenant's sign-in policy (platform/security-policy.ts). */
  policyOf: (tenantId: number) => Promise<SecurityPolicy>;
  /** Ends a sign-on session as its logout does: CAS single logout, OpenID back-channel logout. */
  endSso: (ssoSessionId: string) => Promise<void>;
  /** Sends a notice to one person (the notices module). */
  tell: (tenantId: number, userId: number, text: Record<Lang, { title: string; body: string }>) => Promise<void>;
  /** Runs work after the answer (notices, last-seen marks); failures are logged there. */
  later: (work: () => Promise<unknown>) => void;
  /** A login event that could not be written (the sign-in goes on). */
  onError: (err: unknown, what: string) => void;
}

/** A person's factor changed: what the factors module tells. */
export type FactorChange = 'added' | 'removed' | 'reset' | 'recovery_regenerated';

const FACTOR_WORDS: Record<string, Record<Lang, string>> = {
  totp: { zh: '身份验证器', en: 'authenticator app' },
  webauthn: { zh: '通行密钥', en: 'passkey' },
  sms: { zh: '短信验证', en: 'SMS code' },
  recovery: { zh: '恢复码', en: 'recovery codes' },
};

const FACTOR_TEXTS: Record<FactorChange, Record<Lang, (what: string) => { title: string; body: string }>> = {
  added: {
    zh: (what) => ({
      title: '已添加登录验证方式',
      body: `您的账号添加了${what}。如非本人操作，请立即修改密码并联系管理员。`,
    }),
    en: (what) => ({
      title: 'A sign-in factor was added',
      body: `An ${what} was added to your account. If this was not you, change your password now and tell an administrator.`,
    }),
  },
  removed: {
    zh: (what) => ({
      title: '已移除登录验证方式',
      body: `您的账号移除了${what}。如非本人操作，请立即修改密码并联系管理员。`,
    }),
    en: (what) => ({
      title: 'A sign-in factor was removed',
      body: `An ${what} was removed from your account. If this was not you, change your password now and tell an administrator.`,
    }),
  },
  reset: {
    zh: () => ({ title: '登录验证方式已被重置', body: '管理员重置了您账号的全部登录验证方式，请重新绑定。' }),
    en: () => ({
      title: 'Your sign-in factors were reset',
      body: 'An administrator reset every sign-in factor of your account; please set one up again.',
    }),
  },
  recovery_regenerated: {
    zh: () => ({
      title: '已重新生成恢复码',
      body: '您的账号重新生成了恢复码，旧的恢复码已失效。如非本人操作，请立即修改密码。',
    }),
    en: () => ({
      title: 'New recovery codes',
      body: 'New recovery codes were made for your account; the old ones no longer work. If this was not you, change your password now.',
    }),
  },
};

const NEW_DEVICE: Record<Lang, (device: string, ip: string, at: string) => { title: string; body: string }> = {
  zh: (device, ip, at) => ({
    title: '新设备登录提醒',
    body: `您的账号于 ${at} 在新设备（${device}，地址 ${ip}）上登录。如非本人操作，请在“账户安全”中结束该登录并修改密码。`,
  }),
  en: (device, ip, at) => ({
    title: 'Sign-in from a new device',
    body: `Your account signed in on a new device (${device}, address ${ip}) at ${at}. If this was not you, end that sign-in under Account security and change your password.`,
  }),
};

const SIGN_IN_ID = /^(sso|portal)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const parseSignIn = (id: string) => {
  const m = SIGN_IN_ID.exec(id);
  return m ? { kind: m[1] as 'sso' | 'portal', key: m[2]! } : null;
};
const signInUnknown = () => new AppError(ResultCode.NOT_FOUND, 'signInUnknown');

const chinaNow = (days = 0) =>
  new Date(Date.now() + PARK_UTC_OFFSET_MS - days * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');

function signInOf(r: SignInRow, current: { sso: string | null; chain: string } | null): SignIn {
  return {
    id: r.id,
    kind: r.kind,
    user: { id: r.userId, username: r.username, name: r.name },
    device: deviceOf(r.userAgent),
    ip: r.ip ?? '',
    startedAt: r.startedAt,
    lastSeenAt: r.lastSeenAt,
    current:
      current !== null && (r.kind === 'sso' ? current.sso === r.key : current.sso === null && current.chain === r.key),
    systems: r.systems,
    portalSessions: r.portalSessions,
  };
}

function eventOf(r: HistoryRow): LoginEvent {
  return {
    id: r.id,
    at: r.at,
    username: r.username,
    user: r.userId === null ? null : { id: r.userId, name: r.name ?? '' },
    outcome: r.outcome,
    via: r.via,
    factor: r.factor,
    ip: r.ip ?? '',
    device: deviceOf(r.userAgent),
  };
}

export interface HistoryQuery {
  limit?: number | undefined;
  before?: string | undefined;
  user?: string | undefined;
  ip?: string | undefined;
  outcome?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export function createSessionsService(deps: SessionsDeps) {
  const { repo, bus } = deps;
  const seenAt = new Map<string, number>();

  /** Ends one sign-in of the scope; false when the scope has no such live one. */
  async function end(scope: { tenantId: number; userId?: number | undefined }, id: string): Promise<number | null> {
    const parsed = parseSignIn(id);
    if (!parsed) return null;
    const ended = await repo.endSignIn(scope, parsed.kind, parsed.key);
    if (!ended) return null;
    for (const session of ended.sessions) await bus.publish({ kind: 'session', id: session });
    if (parsed.kind === 'sso') await deps.endSso(parsed.key);
    return ended.userId;
  }

  /** Ends every live sign-in of a user but `keep`; how many. */
  async function endAllOf(tenantId: number, userId: number, keep?: { sso: string | null; chain: string } | null) {
    let count = 0;
    for (const s of await repo.signInKeysOf(tenantId, userId)) {
      const isKept = keep && (s.kind === 'sso' ? keep.sso === s.key : keep.sso === null && keep.chain === s.key);
      if (isKept) continue;
      if ((await end({ tenantId, userId }, `${s.kind}-${s.key}`)) !== null) count++;
    }
    return count;
  }

  function filterOf(tenantId: number, q: HistoryQuery, userId?: number, lang?: Lang): HistoryFilter {
    const from = realTime(q.from) ?? chinaNow(HISTORY_DEFAULT_DAYS).replace(' ', 'T') + '+08:00';
    const to = realTime(q.to);
    if (q.from && to && q.from.slice(0, 10) > to.slice(0, 10)) {
      throw new AppError(ResultCode.BAD_REQUEST, 'historyRangeInvalid');
    }
    return {
      tenantId,
      userId,
      user: q.user?.trim() || undefined,
      ip: q.ip?.trim() || undefined,
      outcome: q.outcome,
      lang,
      from,
      to,
      before: q.before,
    };
  }

  async function historyPage(f: HistoryFilter, limit: number): Promise<LoginHistoryPage> {
    const rows = await repo.history(f, limit + 1);
    const records = rows.slice(0, limit).map(eventOf);
    return { records, next: rows.length > limit ? (records.at(-1)?.id ?? null) : null };
  }

  /** Whether the user agent is a device family the person has not signed in with within the retention. */
  async function tellIfNewDevice(e: LoginEventInput & { tenantId: number; userId: number }, eventId: string) {
    const key = deviceKey(e.userAgent);
    if (!key) return;
    const policy = await deps.policyOf(e.tenantId);
    const known = await repo.knownAgents(e.userId, policy.loginHistoryDays, eventId);
    // The very first sign-in has nothing to compare with: no notice.
    if (known.length === 0) return;
    if (known.some((ua) => deviceKey(ua) === key)) return;
    const d = deviceOf(e.userAgent);
    const device = [d.browser, d.os].filter(Boolean).join(' / ');
    const at = chinaNow().slice(0, 16);
    await deps.tell(e.tenantId, e.userId, {
      zh: NEW_DEVICE.zh(device, e.ip, at),
      en: NEW_DEVICE.en(device, e.ip, at),
    });
  }

  return {
    /**
     * One sign-in attempt into the login history, whatever path made it (portal, sign-on server,
     * OpenID sign-in, CLI, the factor step, step-up). A success of a known user is compared with
     * their earlier devices after the answer (a notice when the device is new). Never throws: the
     * history must not make a sign-in fail.
     */
    async recordLoginEvent(e: LoginEventInput): Promise<void> {
      let id: string | null;
      try {
        id = await repo.recordLoginEvent(e);
      } catch (err) {
        deps.onError(err, 'login event not written');
        return;
      }
      if (e.outcome === 'succeeded' && e.userId !== null && e.tenantId !== null && id !== null) {
        const known = { ...e, tenantId: e.tenantId, userId: e.userId };
        deps.later(() => tellIfNewDevice(known, id));
      }
    },

    /** Tells the person their factors changed (the factors and passkeys modules call this). */
    async factorChanged(tenantId: number, userId: number, change: FactorChange, kind?: string): Promise<void> {
      const word = (lang: Lang) => (kind ? (FACTOR_WORDS[kind]?.[lang] ?? kind) : '');
      await deps.tell(tenantId, userId, {
        zh: FACTOR_TEXTS[change].zh(word('zh')),
        en: FACTOR_TEXTS[change].en(word('en')),
      });
    },

    /**
     * Marks a portal session as seen, at most once a minute per session and instance (the statement
     * itself skips a write within the minute, whichever instance made it), after the answer.
     */
    seen(sessionId: string): void {
      const now = Date.now();
      const last = seenAt.get(sessionId);
      if (last !== undefined && now - last < 60_000) return;
      if (seenAt.size >= SEEN_REMEMBERED) seenAt.clear();
      seenAt.set(sessionId, now);
      deps.later(() => repo.seen(sessionId));
    },

    async mySignIns(session: ActiveSession, lang: Lang): Promise<SignIn[]> {
      const current = await repo.signInOf(session.id);
      const { records } = await repo.signIns(
        { tenantId: session.tenantId, userId: session.userId, lang },
        { page: 1, limit: 100 },
      );
      return records.map((r) => signInOf(r, current));
    },

    async endMine(session: ActiveSession, id: string, ip: string): Promise<void> {
      const scope = { tenantId: session.tenantId, userId: session.userId };
      if ((await end(scope, id)) === null) throw signInUnknown();
      await repo.audit(session.tenantId, session.userId, 'session.end', ip, { signIn: id });
    },

    async endMyOthers(session: ActiveSession, ip: string): Promise<{ ended: number }> {
      const current = await repo.signInOf(session.id);
      const ended = await endAllOf(session.tenantId, session.userId, current);
      await repo.audit(session.tenantId, session.userId, 'session.end_others', ip, { ended });
      return { ended };
    },

    async myHistory(session: ActiveSession, q: HistoryQuery): Promise<LoginHistoryPage> {
      const { user: _, ...own } = q;
      return historyPage(filterOf(session.tenantId, own, session.userId), q.limit ?? 20);
    },

    async onlineUsers(
      caller: Caller,
      q: { page?: number | undefined; limit?: number | undefined; user?: string | undefined; ip?: string | undefined },
      lang: Lang,
    ) {
      const { tenantId } = await deps.operatorOf(caller);
      const { records, total } = await repo.signIns(
        { tenantId, user: q.user?.trim() || undefined, ip: q.ip?.trim() || undefined, lang },
        { page: q.page ?? 1, limit: q.limit ?? 20 },
      );
      const current = await repo.signInOf(caller.session.id);
      return { records: records.map((r) => signInOf(r, current)), total };
    },

    async endUserSignIn(caller: Caller, signIn: string): Promise<void> {
      const { tenantId } = await deps.operatorOf(caller);
      if ((await end({ tenantId }, signIn)) === null) throw signInUnknown();
    },

    async endUserSignIns(caller: Caller, userIdText: string): Promise<{ ended: number }> {
      const { tenantId } = await deps.operatorOf(caller);
      const userId = rowId(userIdText);
      if (!(await repo.userInTenant(tenantId, userId))) throw new AppError(ResultCode.NOT_FOUND, 'notFound');
      return { ended: await endAllOf(tenantId, userId) };
    },

    async history(caller: Caller, q: HistoryQuery, lang: Lang): Promise<LoginHistoryPage> {
      const { tenantId } = await deps.operatorOf(caller);
      return historyPage(filterOf(tenantId, q, undefined, lang), q.limit ?? 20);
    },

    async exportHistory(caller: Caller, q: HistoryQuery, lang: Lang): Promise<LoginHistoryExport> {
      const { tenantId } = await deps.operatorOf(caller);
      const rows = await repo.history(
        filterOf(tenantId, { ...q, before: undefined }, undefined, lang),
        LOGIN_HISTORY_EXPORT_MAX + 1,
      );
      const kept = rows.slice(0, LOGIN_HISTORY_EXPORT_MAX);
      const header =
        lang === 'zh'
          ? ['时间', '用户名', '姓名', '结果', '方式', '第二因素', '地址', '浏览器', '系统']
          : ['Time', 'Username', 'Name', 'Outcome', 'Through', 'Second factor', 'Address', 'Browser', 'System'];
      const csv = csvOf(
        header,
        kept.map((r) => {
          const d = deviceOf(r.userAgent);
          return [
            r.at,
            r.username,
            r.name,
            LOGIN_OUTCOME_LABELS[r.outcome as LoginOutcome]?.[lang] ?? r.outcome,
            LOGIN_VIA_LABELS[r.via as LoginVia]?.[lang] ?? r.via,
            r.factor,
            r.ip,
            d.browser,
            d.os,
          ];
        }),
      );
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
      return { fileName: `login-history-${stamp}.csv`, csv, rows: kept.length, truncated: rows.length > kept.length };
    },

    /** Housekeeping: every tenant's history older than its `loginHistoryDays`. */
    async pruneHistory(): Promise<number> {
      let deleted = await repo.pruneHistory(null, NO_TENANT_DAYS, PRUNE_BATCH);
      for (const tenantId of await repo.tenantIds()) {
        const { loginHistoryDays } = await deps.policyOf(tenantId);
        deleted += await repo.pruneHistory(tenantId, loginHistoryDays, PRUNE_BATCH);
      }
      return deleted;
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;

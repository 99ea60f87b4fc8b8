import type { preHandlerAsyncHookHandler } from 'fastify';
import type { PasskeyFactor } from './credentials.js';
import type { HousekeepingTask } from './housekeeping.js';
import type { Metrics } from './metrics.js';
import type { RouteEntry } from './route-table.js';
import type { ActiveSession } from './session.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler that loads the session named by the Authorization_front token, or answers 401. */
    authenticate: preHandlerAsyncHookHandler;
    /** Every route registered, with its schema (platform/route-table.ts). */
    routeTable: readonly RouteEntry[];
    /** Prometheus metrics (platform/metrics.ts), served by main.ts on METRICS_PORT. */
    metrics: Metrics;
    /** The modules' housekeeping work (platform/housekeeping.ts), started by main.ts. */
    housekeeping: readonly HousekeepingTask[];
    /** The OpenID Provider's work outside a request (modules/oidc): key rotation, ending a sign-on session's grants. */
    oidc: { rotateKeys(now?: Date): Promise<number>; endSsoSession(ssoSessionId: string): Promise<void> };
    /** The factor step's use of passkeys (platform/credentials.ts), the passkeys module's. */
    passkeyFactor: PasskeyFactor;
  }
  interface FastifyRequest {
    session: ActiveSession | null;
    /**
     * The tenant an operator's call acts on, when a platform operator named another: set by the admin
     * module's gate, the tenant of the call's audit row (platform/operators.ts).
     */
    operatorTenant: number | null;
  }
  interface FastifyContextConfig {
    /** A GET that changes state (sends an SMS, stores a captcha): its nonce waits for PostgreSQL (ADR 013). */
    changesState?: boolean;
    /** Answers with a stream that stays open (server-sent events): the route suites read its first event. */
    stream?: boolean;
    /**
     * Open to a session whose user must change the password first (ADR 033): only the change itself
     * and the logout; every other session route answers 40305 to such a session.
     */
    pendingPasswordChange?: boolean;
    /**
     * A read under /api/admin/ that shows what could take over someone's account (the SMS outbox's
     * codes): written to the audit log like a change (platform/operators.ts).
     */
    auditedRead?: boolean;
  }
}

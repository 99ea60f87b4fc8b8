/**
 * The example external system served with the demo (`/example-system/`): a park's property-service
 * system that knows nothing of the portal but the sign-on server. It is a CAS client like any
 * other registered service: unknown visitors go to the sign-on server's login, a returning ticket
 * is validated over HTTP and opens a session of its own (a cookie), and the sign-on server's single
 * logout ends it. The portal enters it through /front/esa/system/sso (its sysCode is PROPERTY).
 */
import { randomBytes } from 'node:crypto';
import type { CasUser } from '../../platform/cas-client.js';
import { sha256Hex as hash } from '../../platform/hash.js';
import type { ExampleSession, ExampleSystemRepository } from './example-system.repository.js';

export const EXAMPLE_SYSTEM_PATH = '/example-system/';

export interface ExampleSystemDeps {
  repo: ExampleSystemRepository;
  /** Validates a service ticket for `service` at the sign-on server; null when refused. */
  validateTicket: (ticket: string, service: string) => Promise<CasUser | null>;
  /** This system's service address (the one registered with the sign-on server). */
  service: string;
  sessionTtlSeconds: number;
}

export function createExampleSystemService(deps: ExampleSystemDeps) {
  return {
    /** A returning ticket: a new session (its cookie value), or null when the ticket is refused. */
    async enter(ticket: string): Promise<string | null> {
      const user = await deps.validateTicket(ticket, deps.service);
      if (!user) return null;
      const cookie = randomBytes(32).toString('hex');
      await deps.repo.open({
        idHash: hash(cookie),
        ticket,
        tenantCode: user.tenantCode,
        username: user.username,
        name: user.name ?? user.username,
        ttlSeconds: deps.sessionTtlSeconds,
      });
      return cookie;
    },

    session: (cookie: string): Promise<ExampleSession | null> => deps.repo.find(hash(cookie)),

    leave: (cookie: string) => deps.repo.end(hash(cookie)),

    singleLogout: (ticket: string) => deps.repo.endByTicket(ticket),
  };
}

export type ExampleSystemService = ReturnType<typeof createExampleSystemService>;

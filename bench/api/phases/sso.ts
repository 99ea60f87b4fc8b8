/**
 * Phase 7: the sign-on server, service tickets for live SSO sessions and their validation.
 */
import type { Db } from '../../../apps/server/src/db/client.js';
import { hashCookie, newTicket, newTicketGrantingCookie } from '../../../apps/server/src/modules/sso/sso.service.js';
import { cannon, describe } from '../cannon.js';
import type { Portal } from '../client.js';
import { log, settings } from '../settings.js';

/**
 * The sign-on server's two hot paths: a browser with a live SSO session asking for a service
 * ticket (GET /cas/login: session touched, ticket written, 302), and a service validating one
 * (p3/serviceValidate, JSON: the ticket spent in one statement). 1,000 SSO sessions and the tickets
 * are written straight to the database first, so that no login work is measured.
 */
export async function benchSso(portal: Portal, db: Db) {
  const service = 'http://bench.test/app/home';
  const [svc] = (
    await db.$client.query<{ id: number }>(
      `INSERT INTO sso_services (tenant_id, name, pattern)
       SELECT id, 'bench', 'http://bench.test/app/' FROM tenants WHERE code = 'demo' RETURNING id`,
    )
  ).rows;
  const cookies = Array.from({ length: 1000 }, newTicketGrantingCookie);
  const sessions = (
    await db.$client.query<{ id: string }>(
      `INSERT INTO sso_sessions (cookie_hash, tenant_id, user_id, expires_at)
       SELECT h, u.tenant_id, u.id, now() + interval '8 hours'
       FROM unnest($1::text[]) AS c(h), users u WHERE u.username = 'member'
       RETURNING id`,
      [cookies.map(hashCookie)],
    )
  ).rows.map((r) => r.id);
  if (sessions.length !== cookies.length) throw new Error(`sso: ${sessions.length} sessions written`);

  const issuePath = `/cas/login?${new URLSearchParams({ tenantCode: 'demo', service })}`;
  let i = 0;
  log(`sso issue: ${settings.duration} s × ${settings.connections} connections, tickets for live SSO sessions`);
  const issue = await cannon({
    url: portal.base + issuePath,
    connections: settings.connections,
    duration: settings.duration,
    requests: [
      {
        method: 'GET',
        path: issuePath,
        setupRequest: (req: { headers?: Record<string, string> }) => {
          req.headers = { cookie: `CASTGC=${cookies[i++ % cookies.length]}` };
          return req;
        },
      },
    ],
  });
  log(`sso issue: ${describe(issue)}`);

  const count = settings.duration * 30_000;
  const tickets = Array.from({ length: count }, newTicket);
  await db.$client.query(
    `INSERT INTO sso_tickets (ticket, sso_session_id, service_id, service, from_new_login, expires_at)
     SELECT t, $2::uuid, $3, $4, true, now() + interval '10 minutes' FROM unnest($1::text[]) AS u(t)`,
    [tickets, sessions[0], svc!.id, service],
  );
  const paths = tickets.map(
    (ticket) => `/cas/p3/serviceValidate?${new URLSearchParams({ ticket, service, format: 'JSON' })}`,
  );
  let v = 0;
  log(`sso validate: ${settings.duration} s × ${settings.connections} connections, one attempt per ticket`);
  const validate = await cannon(
    {
      url: portal.base + paths[0],
      connections: settings.connections,
      amount: count,
      requests: [
        {
          method: 'GET',
          setupRequest: (req: { path?: string }) => {
            req.path = paths[v++]!;
            return req;
          },
        },
      ],
      verifyBody: (b: string) => b.includes('"authenticationSuccess"'),
    },
    settings.duration,
  );
  log(`sso validate: ${describe(validate)}`);
  return { issue, validate };
}

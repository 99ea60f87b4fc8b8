/**
 * `login --client-id` (ADR 056): a service account signs the CLI in with client_credentials at its
 * tenant's token endpoint (openid-client against the real provider), its secret read from a file or
 * PORTAL_CLIENT_SECRET, never from the command line; the commands then call the operators' API with
 * the access token as a Bearer credential.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded.js';
import { createTestContext, type TestContext } from '../../test/harness.js';
import { main } from './main.js';

let ctx: TestContext;
let server: string;
let dir: string;
let session: string;
let clientId: string;
let secret: string;

async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const input = new PassThrough();
  input.end('');
  const code = await main(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: input,
    env,
    cwd: dir,
    configPath: session,
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  const port = await freePort();
  server = `http://127.0.0.1:${port}`;
  ctx = await createTestContext({ PUBLIC_URL: server, LOGIN_RATE_PER_MINUTE: '100000' });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  dir = await mkdtemp(join(tmpdir(), 'portal-cli-sa-'));
  session = join(dir, 'session.json');
  const operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  const role = (
    await ctx.db.execute<{ id: string }>(sql`
      SELECT r.id::text AS id FROM roles r JOIN tenants t ON t.id = r.tenant_id
      WHERE t.code = 'demo' AND r.code = 'park_operator'`)
  ).rows[0]!.id;
  const res = await ctx.call({
    url: '/api/admin/oidc-clients',
    token: operator,
    body: {
      name: '部署机器人',
      confidential: true,
      grantTypes: ['client_credentials'],
      scopes: [],
      serviceAccount: true,
      serviceRoleId: role,
    },
  });
  ({ clientId, secret } = (res.json() as { data: { clientId: string; secret: string } }).data);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('npm run admin -- login --client-id', () => {
  it('wants the secret from a file or the environment, never the command line', async () => {
    const r = await run(['login', '--server', server, '--tenant', 'demo', '--client-id', clientId]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--client-secret-file');
    const inline = await run([
      'login',
      '--server',
      server,
      '--tenant',
      'demo',
      '--client-id',
      clientId,
      '--client-secret',
      secret,
    ]);
    expect(inline.code).toBe(2);
  });

  it('logs in with client_credentials and calls the operators’ API as the service account', async () => {
    const file = join(dir, 'secret.txt');
    await writeFile(file, `${secret}\n`, { mode: 0o600 });
    const r = await run([
      'login',
      '--server',
      server,
      '--tenant',
      'demo',
      '--client-id',
      clientId,
      '--client-secret-file',
      'secret.txt',
    ]);
    expect(r.stderr).toContain(`service account ${clientId}`);
    expect(r.code).toBe(0);
    expect((await stat(session)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(session, 'utf8')) as Record<string, string>;
    expect(saved).toMatchObject({ clientId, tenant: 'demo' });
    expect(JSON.stringify(saved)).not.toContain(secret);
    const users = await run(['get', 'users', '--fields', 'username']);
    expect(users.stderr).toBe('');
    expect(users.code).toBe(0);
    expect(users.stdout).toContain('member');
    // A step-up action stays an operator's.
    const refused = await run(['set-password', '--username', 'member', '--new-password', 'Another-Pass-2026']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('40303');
    expect((await run(['logout'])).code).toBe(0);
    expect((await run(['get', 'users'])).code).toBe(3);
  });

  it('takes PORTAL_CLIENT_SECRET, and says so when the provider refuses the secret', async () => {
    const ok = await run(['login', '--server', server, '--tenant', 'demo', '--client-id', clientId], {
      PORTAL_CLIENT_SECRET: secret,
    });
    expect(ok.code).toBe(0);
    const wrong = await run(['login', '--server', server, '--tenant', 'demo', '--client-id', clientId], {
      PORTAL_CLIENT_SECRET: 'wrong',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('invalid_client');
  });
});

/**
 * Test harness for server tests: a fresh database (migrated and seeded) on the run's PostgreSQL,
 * the real app built in memory, and helpers that sign requests exactly as a client must.
 */
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signRequest } from '@portal/contracts/node-signing';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { buildApp, type App } from '../app.js';
import { connect, type Db } from '../db/client.js';
import { roles } from '../db/schema.js';
import { loadConfig } from '../platform/config.js';
import { loadSecrets, type Secrets } from '../platform/secrets.js';
import { copyTemplate, DEMO_PASSWORD } from '../programs/test-template/template.js';

export { DEMO_PASSWORD };

export function databaseUrl(name: string): string {
  const admin = process.env.TEST_PG_ADMIN_URL;
  if (!admin) throw new Error('TEST_PG_ADMIN_URL is not set: run tests through vitest (test/global-setup.ts)');
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A new database with migrations and demo data (a copy of the run's template); returns its URL. */
export async function freshDatabase(prefix = 't'): Promise<string> {
  return copyTemplate(`${prefix}_${randomBytes(6).toString('hex')}`);
}

/**
 * Injects a request into a route whose answer may be a stream that stays open (the route table's
 * `stream`): the answer's head, and its body until `enough` says so (by default: the first event,
 * a blank line) or `waitMs` passed; then the stream is let go. Any other answer is read whole.
 */
export async function injectStreaming(
  app: App,
  options: InjectOptions,
  waitMs = 2000,
  enough: (text: string) => boolean = (text) => text.includes('\n\n'),
): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }> {
  const res = await app.inject({ ...options, payloadAsStream: true });
  const stream = res.stream();
  const body = await new Promise<string>((resolve) => {
    let text = '';
    const done = () => {
      clearTimeout(timer);
      stream.destroy();
      resolve(text);
    };
    const timer = setTimeout(done, waitMs);
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (enough(text)) done();
    });
    stream.on('end', done);
    stream.on('error', done);
  });
  return { statusCode: res.statusCode, headers: res.headers, body };
}

export interface SignedCall {
  method?: InjectOptions['method'];
  url: string;
  body?: Record<string, unknown>;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestContext {
  app: App;
  db: Db;
  /** The database's URL, to start a second instance on it. */
  url: string;
  secrets: Secrets;
  call(c: SignedCall): ReturnType<App['inject']>;
  /** A signed multipart upload of one file (part `file`) to `url`, which may carry a query. */
  upload(url: string, token: string, fileName: string, content: Buffer | string): ReturnType<App['inject']>;
  encrypt(password: string): string;
  login(username?: string, password?: string, tenantCode?: string): Promise<string>;
  /** The token of `token`'s session switched to the role `roleCode` of its tenant (e.g. the park operator). */
  asRole(token: string, roleCode: string): Promise<string>;
  close(): Promise<void>;
}

export async function createTestContext(
  env: Record<string, string> = {},
  { databaseUrl }: { databaseUrl?: string } = {},
): Promise<TestContext> {
  const url = databaseUrl ?? (await freshDatabase());
  const db = connect(url, 5);
  const secrets = await loadSecrets(db);
  // Uploads go to a directory of this run, never into the working tree.
  const filesDir = await mkdtemp(join(tmpdir(), 'portal-files-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORTAL_TEST_CAPTCHA: '1',
    DATABASE_URL: url,
    FILES_DIR: filesDir,
    ...env,
  });
  // TEST_LOG=1 shows the server's own log (errors included) while debugging a test.
  const app = await buildApp({ config, db, secrets, ...(process.env.TEST_LOG ? {} : { logger: false }) });
  await app.ready();

  const call = (c: SignedCall) =>
    app.inject({
      method: c.method ?? (c.body ? 'POST' : 'GET'),
      url: c.url,
      ...(c.body ? { payload: c.body } : {}),
      headers: {
        ...signRequest(secrets.signSecret, c.url, c.body),
        ...(c.token ? { authorization_front: c.token } : {}),
        ...c.headers,
      },
    });
  const upload = (address: string, token: string, fileName: string, content: Buffer | string) => {
    const [path, query] = address.split('?') as [string, string | undefined];
    const boundary = '----portal-test-boundary';
    return app.inject({
      method: 'POST',
      url: address,
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        ),
        Buffer.isBuffer(content) ? content : Buffer.from(content),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization_front: token,
        ...signRequest(secrets.signSecret, path, query ? Object.fromEntries(new URLSearchParams(query)) : undefined),
      },
    });
  };
  const encrypt = (password: string) =>
    publicEncrypt(
      { key: secrets.rsaPublicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(password, 'utf8'),
    ).toString('base64');

  return {
    app,
    db,
    url,
    secrets,
    call,
    upload,
    encrypt,
    async login(username = 'member', password = DEMO_PASSWORD, tenantCode = 'demo') {
      const captchaKey = randomBytes(8).toString('hex');
      await call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
      const res = await call({
        url: `/api/auth/jwt/front/token?tenantCode=${tenantCode}`,
        body: { username, password: encrypt(password), imgvercode: '8888', captchaKey },
      });
      const body = res.json();
      if (body.status !== 200) throw new Error(`login failed: ${res.body}`);
      return body.data as string;
    },
    async asRole(token, roleCode) {
      const me = (await call({ url: '/api/front/member/front/infoV2', token })).json().data as { tenantId: string };
      const [role] = await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.tenantId, Number(me.tenantId)), eq(roles.code, roleCode)));
      const res = await call({ url: '/api/front/member/switchContext', body: { roleId: String(role!.id) }, token });
      if (res.json().status !== 200) throw new Error(`role switch failed: ${res.body}`);
      return res.json().data as string;
    },
    async close() {
      await app.close();
      await db.$client.end();
      await rm(filesDir, { recursive: true, force: true });
    },
  };
}

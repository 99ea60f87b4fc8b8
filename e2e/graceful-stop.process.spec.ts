/**
 * Graceful stop under load: keep-alive clients keep calling the built server (captcha
 * images, public keys, failed and successful logins, health) when it gets SIGTERM. Every request
 * that reached it gets its normal answer: no 503, no connection reset; a client learns from
 * `Connection: close` to stop reusing its connection, and only new connections are refused.
 */
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { signRequest } from '@portal/contracts/node-signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedFetch } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ LOGIN_RATE_PER_MINUTE: '100000', CAPTCHA_RATE_PER_MINUTE: '100000' });
});
afterAll(async () => server?.stop());

interface Outcome {
  status?: number;
  error?: string;
  /** The answer said Connection: close. */
  closing?: boolean;
  at: number;
}

function call(
  agent: Agent,
  secret: string,
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
): Promise<Outcome> {
  const payload = body ? JSON.stringify(body) : undefined;
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: {
          ...signRequest(secret, path, body),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode!, closing: res.headers.connection === 'close', at: Date.now() }),
        );
        res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message, at: Date.now() }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message, at: Date.now() }));
    req.end(payload);
  });
}

describe('graceful stop', () => {
  it('answers every request that reached the server after SIGTERM, under steady keep-alive load', async () => {
    const config = await (await fetch(`${server.url}/center/config.js`)).text();
    const secret = (
      JSON.parse(config.slice(config.indexOf('{'), config.lastIndexOf('}') + 1)) as { signSecret: string }
    ).signSecret;
    const agent = new Agent({ keepAlive: true, maxSockets: 12 });
    const key = await signedFetch(server.url, secret, '/api/front/account/auth/publicKey');
    const publicKey = (key.body.data as { publicKey: string }).publicKey;
    const cipher = (password: string) =>
      publicEncrypt(
        { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(password),
      ).toString('base64');

    /** One of the portal's ordinary calls, in turn. */
    const kinds = [
      async () => call(agent, secret, 'GET', `/api/auth/kaptcha/get?type=LOGIN&data=${randomBytes(8).toString('hex')}`),
      async () => call(agent, secret, 'GET', '/api/front/account/auth/publicKey'),
      async () => {
        const captchaKey = randomBytes(8).toString('hex');
        const shown = await call(agent, secret, 'GET', `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}`);
        if (shown.error || shown.status !== 200) return shown;
        return call(agent, secret, 'POST', '/api/auth/jwt/front/token?tenantCode=demo', {
          username: 'member',
          password: cipher(Math.random() < 0.5 ? 'Demo@2026!' : 'Wrong@2026!'),
          imgvercode: '8888',
          captchaKey,
        });
      },
      async () => call(agent, secret, 'GET', '/healthz'),
    ];

    const outcomes: Outcome[] = [];
    let stopped = false;
    const exited = new Promise<number | null>((done) => server.process.once('exit', (code) => done(code)));
    const client = async (i: number) => {
      for (let n = i; ; n++) {
        const o = await kinds[n % kinds.length]!();
        outcomes.push(o);
        // Once the server has stopped listening, a client's next connection is refused: it is done.
        if (o.error === 'ECONNREFUSED' || (stopped && outcomes.length > 200_000)) return;
      }
    };
    const clients = Array.from({ length: 12 }, (_, i) => client(i));
    // Under load: well over the 50 answers the stop is checked against below.
    await expect
      .poll(() => outcomes.filter((o) => o.status !== undefined).length, { timeout: 10_000 })
      .toBeGreaterThan(200);
    const sigterm = Date.now();
    stopped = true;
    server.process.kill('SIGTERM');
    await Promise.all(clients);
    expect(await exited).toBe(0);
    agent.destroy();

    const after = outcomes.filter((o) => o.at >= sigterm);
    const failed = outcomes.filter(
      (o) => (o.error && o.error !== 'ECONNREFUSED') || (o.status !== undefined && o.status >= 500),
    );
    const drained = after.filter((o) => o.status !== undefined);
    console.log(
      `graceful stop: ${outcomes.length} requests, ${drained.length} answered after SIGTERM ` +
        `(${drained.filter((o) => o.closing).length} with Connection: close), ${failed.length} failed`,
    );
    expect(failed.map((o) => o.error ?? o.status)).toEqual([]);
    expect(outcomes.filter((o) => o.status !== undefined && o.at < sigterm).length).toBeGreaterThan(50);
    // The drain was exercised: requests that arrived on open connections after SIGTERM were
    // answered, and told the client to stop reusing its connection.
    expect(drained.filter((o) => o.closing).length).toBeGreaterThan(0);
  }, 60_000);
});

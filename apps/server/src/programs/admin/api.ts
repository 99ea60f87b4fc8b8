/**
 * The portal's API as the CLI calls it: every /api call signed (docs/api.md "Every call") with the
 * signSecret the server serves in `config.js`, the session token in `Authorization_front`, and the
 * answer's envelope turned into the CLI's exit codes: 200 → its data; a code that ends the session
 * → 3; any other refusal → 1 with the server's status and message; no answer at all → 4.
 */
import { constants, publicEncrypt } from 'node:crypto';
import { LOGOUT_CODES, ResultCode } from '@portal/contracts';
import { signRequest } from '@portal/contracts/node-signing';
import { CliError, EXIT } from './args.js';

export type Query = [string, string][];
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Connection {
  server: string;
  publicPath: string;
  /** The tenant whose `config.js` is read (`?tc=`). */
  tenant?: string | undefined;
  signSecret?: string | undefined;
  token?: string | undefined;
  /** The token is a service account's access token (ADR 056): sent as `Authorization: Bearer`. */
  bearer?: boolean | undefined;
  lang?: 'zh' | 'en' | undefined;
  /** Added to every admin call as `?tenant=` (a platform operator acting on a tenant). */
  actOn?: string | undefined;
}

export interface RequestOptions {
  query?: Query;
  body?: Record<string, unknown>;
  /** Sends the session token (default: when there is one). */
  auth?: boolean;
}

/** The server's URL as given (`http://host:8080`, `https://portal.example.com/`), checked. */
export function normalizeServer(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`--server must be an http(s) address like http://localhost:8080, not '${text}'`, EXIT.USAGE);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`--server must be an http(s) address, not '${text}'`, EXIT.USAGE);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** `/center/`-like: starts and ends with a slash. */
export function normalizePublicPath(text: string): string {
  const trimmed = text.replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}

/** The JSON of `window.__PORTAL_CONFIG__=…;` (the `config.js` the server serves). */
export function parseConfigScript(script: string): Record<string, unknown> | null {
  const m = /window\.__PORTAL_CONFIG__\s*=\s*(\{[\s\S]*\})\s*;?\s*$/.exec(script.trim());
  if (!m) return null;
  try {
    return JSON.parse(m[1]!) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** What a network failure says, in one line (undici hides the reason in `cause`). */
function reasonOf(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'no answer in time';
  return e.cause?.code ?? e.cause?.message ?? e.message;
}

interface Envelope {
  status: number;
  message?: unknown;
  data?: unknown;
}

/** The portal's `{status, message, data}`, or null when the answer is not one (a proxy's page). */
function envelopeOf(text: string): Envelope | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && typeof (value as Envelope).status === 'number'
      ? (value as Envelope)
      : null;
  } catch {
    return null;
  }
}

export class PortalApi {
  /** Milliseconds to add to the local clock (set when the server said our timestamp was stale). */
  private clockOffset = 0;

  constructor(
    readonly conn: Connection,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly timeoutMs = 30_000,
  ) {}

  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetchImpl(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new CliError(`Cannot reach the server at ${this.conn.server}: ${reasonOf(err)}`, EXIT.UNREACHABLE);
    }
  }

  /** The signSecret of the server's `config.js` (kept in the connection). */
  async loadSignSecret(): Promise<string> {
    const tc = this.conn.tenant ? `?tc=${encodeURIComponent(this.conn.tenant)}` : '';
    const url = `${this.conn.server}${this.conn.publicPath}config.js${tc}`;
    const res = await this.send(url, { method: 'GET' });
    if (res.status === 502 || res.status === 504) {
      throw new CliError(`Cannot reach the server at ${this.conn.server}: HTTP ${res.status}`, EXIT.UNREACHABLE);
    }
    const config = res.ok ? parseConfigScript(await res.text()) : null;
    const secret = config?.signSecret;
    if (typeof secret !== 'string' || !secret) {
      throw new CliError(
        `No portal configuration at ${url} (HTTP ${res.status}): check --server and --public-path`,
        EXIT.REFUSED,
      );
    }
    this.conn.signSecret = secret;
    return secret;
  }

  /** One call: its `data` when the envelope's status is 200, else a CliError (see the file's comment). */
  async request<T = unknown>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
    return this.attempt<T>(method, path, opts, false);
  }

  private async attempt<T>(method: Method, path: string, opts: RequestOptions, retried: boolean): Promise<T> {
    const secret = this.conn.signSecret ?? (await this.loadSignSecret());
    const query: Query = [...(opts.query ?? [])];
    if (this.conn.actOn && path.startsWith('/api/admin/') && !query.some(([k]) => k === 'tenant')) {
      query.push(['tenant', this.conn.actOn]);
    }
    if (this.conn.lang === 'en' && !query.some(([k]) => k === 'language')) query.push(['language', 'eng']);
    const search = new URLSearchParams(query).toString();
    const pathAndQuery = search ? `${path}?${search}` : path;
    const hasBody = method !== 'GET' && method !== 'DELETE';
    const body = hasBody ? (opts.body ?? {}) : undefined;
    const token = opts.auth === false ? undefined : this.conn.token;
    const res = await this.send(`${this.conn.server}${pathAndQuery}`, {
      method,
      headers: {
        ...signRequest(secret, pathAndQuery, body ?? null, Date.now() + this.clockOffset),
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? (this.conn.bearer ? { authorization: `Bearer ${token}` } : { authorization_front: token }) : {}),
        'user-agent': 'portal-admin-cli',
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const envelope = envelopeOf(text);
    if (!envelope) {
      if (res.status === 502 || res.status === 503 || res.status === 504) {
        throw new CliError(`Cannot reach the server at ${this.conn.server}: HTTP ${res.status}`, EXIT.UNREACHABLE);
      }
      const line = text.replace(/\s+/g, ' ').trim().slice(0, 200);
      throw new CliError(`Error ${res.status}: ${line || res.statusText || 'no answer'}`, EXIT.REFUSED);
    }
    const status = envelope.status;
    const message = typeof envelope.message === 'string' ? envelope.message : '';
    if (status === ResultCode.OK) return envelope.data as T;

    if (status === ResultCode.BAD_SIGNATURE && !retried) {
      // A secret changed since login, or a clock far off the server's: read both again, once.
      const date = Date.parse(res.headers.get('date') ?? '');
      if (Number.isFinite(date) && Math.abs(date - Date.now()) > 60_000) this.clockOffset = date - Date.now();
      await this.loadSignSecret();
      return this.attempt<T>(method, path, opts, true);
    }
    if (token && LOGOUT_CODES.includes(status)) {
      throw new CliError(`Session ended (${status} ${message}): log in again`, EXIT.SESSION);
    }
    const retry = res.headers.get('retry-after');
    throw new CliError(
      `Error ${status}: ${message || res.statusText}${status === 429 && retry ? ` (retry after ${retry} s)` : ''}`,
      EXIT.REFUSED,
      (envelope as { data?: unknown }).data ?? undefined,
    );
  }

  /** `password` RSA-OAEP-SHA256 encrypted with the server's key, base64: how passwords travel. */
  async encryptor(): Promise<(password: string) => string> {
    const { publicKey } = await this.request<{ publicKey: string }>('GET', '/api/front/account/auth/publicKey', {
      auth: false,
    });
    return (password) =>
      publicEncrypt(
        { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(password, 'utf8'),
      ).toString('base64');
  }
}

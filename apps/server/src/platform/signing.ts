/**
 * Verifies signed requests (docs/api.md#every-call): X-Timestamp within ±300 s, X-Nonce not seen in that
 * window (kept in PostgreSQL so replays are caught across instances; a read does not wait for that
 * verdict, docs/decisions/013), and X-Signature = hex(HMAC-SHA256(secret, ts \n nonce \n path \n
 * params)) compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { LIMITS, NONCE_PATTERN, ResultCode, SIGNING_HEADERS, canonicalParams, signingText } from '@portal/contracts';
import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { named } from '../db/named.js';
import { AppError } from './errors.js';

// Named: one of them runs for every signed request.
const RECORD_NONCES = named(
  'nonces_record',
  'INSERT INTO request_nonces (nonce) SELECT unnest($1::text[]) ON CONFLICT (nonce) DO NOTHING',
);
/**
 * The nonces any instance took in the last two windows (a request signed at the edge of one window
 * can be replayed until the end of the next), newest first: what a starting instance remembers.
 */
const SEEN_LATELY = named<{ nonce: string }>(
  'nonces_seen_lately',
  "SELECT nonce FROM request_nonces WHERE seen_at > now() - $1 * interval '1 second' ORDER BY seen_at DESC LIMIT $2",
);
const SPEND_NONCES = named<{ nonce: string }>(
  'nonces_spend',
  'INSERT INTO request_nonces (nonce) SELECT unnest($1::text[]) ON CONFLICT (nonce) DO NOTHING RETURNING nonce',
);

export function sign(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export interface NonceStore {
  /** Records `nonce`; false when it was seen before (a replay). */
  spend(nonce: string): Promise<boolean>;
  /** Records a read's nonce without waiting for, or being told, the verdict (docs/decisions/013). */
  record(nonce: string): void;
  /**
   * Resolves once every nonce taken so far is written (or its write failed): the server stops only
   * after this, so a read answered just before a graceful stop can't be replayed after it.
   */
  drain(): Promise<void>;
  /** Up to `limit` nonces seen lately, on any instance. */
  seenLately(limit: number): Promise<string[]>;
}

/**
 * Nonces are written in batches: every nonce of one turn of the event loop goes into one statement,
 * with a few statements in flight at once, so a busy server makes one round trip per turn instead
 * of one per request, and an idle one still answers at once. The pool should commit asynchronously
 * (see connectRelaxed and docs/decisions/005): a crash may forget the last few hundred milliseconds
 * of nonces, which can only re-open a replay window for requests captured in that instant. A batch
 * of reads alone asks only how many rows went in; reads that another instance had seen, and reads
 * whose nonces could not be written, are told to `warn` (their answers are gone already).
 */
export function createNonceStore(
  pool: pg.Pool,
  { maxInFlight = 2, warn = () => {} }: { maxInFlight?: number; warn?: (message: string, err?: unknown) => void } = {},
): NonceStore {
  const replayed = (n: number) => warn(`${n} read(s) replayed on another instance (their nonces were seen there)`);
  type Waiter = { resolve: (fresh: boolean) => void; reject: (err: unknown) => void };
  // A write's nonce has a waiter; a read's has none.
  let pending = new Map<string, Waiter | null>();
  let waiters = 0;
  let scheduled = false;
  let inFlight = 0;
  const drained: Array<() => void> = [];

  function schedule(): void {
    if (scheduled || inFlight >= maxInFlight || pending.size === 0) return;
    scheduled = true;
    // At the end of this turn, so that the turn's other requests join the batch.
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  }

  async function flush(): Promise<void> {
    const batch = pending;
    const batchWaiters = waiters;
    pending = new Map();
    waiters = 0;
    inFlight++;
    const values = [[...batch.keys()]];
    try {
      if (batchWaiters === 0) {
        const res = await RECORD_NONCES(pool, values);
        if ((res.rowCount ?? 0) < batch.size) replayed(batch.size - (res.rowCount ?? 0));
        return;
      }
      const res = await SPEND_NONCES(pool, values);
      const fresh = new Set(res.rows.map((r) => r.nonce));
      let replayedReads = 0;
      for (const [nonce, w] of batch) {
        if (w) w.resolve(fresh.has(nonce));
        else if (!fresh.has(nonce)) replayedReads++;
      }
      if (replayedReads > 0) replayed(replayedReads);
    } catch (err) {
      for (const w of batch.values()) w?.reject(err);
      if (batch.size > batchWaiters) warn('nonces of reads not recorded', err);
    } finally {
      inFlight--;
      schedule();
      if (inFlight === 0 && pending.size === 0) for (const done of drained.splice(0)) done();
    }
  }

  return {
    spend(nonce) {
      // The same nonce twice before it was written: the second is the replay.
      if (pending.has(nonce)) return Promise.resolve(false);
      const spent = new Promise<boolean>((resolve, reject) => pending.set(nonce, { resolve, reject }));
      waiters++;
      schedule();
      return spent;
    },
    record(nonce) {
      if (pending.has(nonce)) return;
      pending.set(nonce, null);
      schedule();
    },
    async seenLately(limit) {
      const { rows } = await SEEN_LATELY(pool, [LIMITS.signatureWindowSeconds * 2, limit]);
      return rows.map((r) => r.nonce);
    },
    drain() {
      if (inFlight === 0 && pending.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        drained.push(resolve);
        // A batch held back by setImmediate goes now; one over maxInFlight follows the running ones.
        if (!scheduled && pending.size > 0 && inFlight < maxInFlight) void flush();
      });
    },
  };
}

/**
 * The nonces this instance accepted lately: two generations of at most `perGeneration` each, the
 * older dropped when the newer is full or older than the signature window. A read's replay on this
 * instance is caught here at once; memory stays bounded whatever the load.
 */
export function createRecentNonces(perGeneration = 100_000, windowMs = LIMITS.signatureWindowSeconds * 1000) {
  let current = new Set<string>();
  let previous = new Set<string>();
  let since: number | null = null;
  return {
    perGeneration,
    has: (nonce: string) => current.has(nonce) || previous.has(nonce),
    /** `at`: the verifier's clock, which also started the generation. */
    add(nonce: string, at: number) {
      since ??= at;
      if (current.size >= perGeneration || at - since > windowMs) {
        previous = current;
        current = new Set();
        since = at;
      }
      current.add(nonce);
    },
  };
}
type RecentNonces = ReturnType<typeof createRecentNonces>;

/**
 * A request that only reads: GET or HEAD, on a route that does not say it changes state (a GET
 * that sends an SMS or draws a captcha sets `config: { changesState: true }`).
 */
const isRead = (req: FastifyRequest) =>
  (req.method === 'GET' || req.method === 'HEAD') && req.routeOptions.config.changesState !== true;

/**
 * Every request's nonce is refused when this instance saw it lately (its last 100,000–200,000).
 * A request that changes state (POST, PUT, DELETE…, or a GET marked so) then waits for the
 * database's verdict, which holds across instances; a read does not: its nonce is recorded in the
 * background, so a write can never reuse it, and a read replayed on another instance (or on this
 * one, past what it remembers) is only noticed (logged). The signing secret is public
 * (docs/api.md#every-call), so a replayed read gains nothing that a new request would not
 * (docs/decisions/013).
 */
export function createSignatureVerifier(
  nonces: NonceStore,
  secret: string,
  now: () => number = Date.now,
  recent: RecentNonces = createRecentNonces(),
) {
  return async function verify(req: FastifyRequest): Promise<void> {
    const ts = header(req, SIGNING_HEADERS.timestamp);
    const nonce = header(req, SIGNING_HEADERS.nonce);
    const signature = header(req, SIGNING_HEADERS.signature);
    if (!ts || !nonce || !signature) throw new AppError(ResultCode.BAD_SIGNATURE, 'signatureMissing');
    const tsNum = Number(ts);
    if (!/^\d{1,16}$/.test(ts) || Math.abs(now() - tsNum) > LIMITS.signatureWindowSeconds * 1000) {
      throw new AppError(ResultCode.BAD_SIGNATURE, 'signatureStale');
    }
    if (!NONCE_PATTERN.test(nonce) || !/^[0-9a-f]{64}$/i.test(signature)) {
      throw new AppError(ResultCode.BAD_SIGNATURE, 'signatureInvalid');
    }
    const path = req.url.split('?')[0] ?? '/';
    const isMultipart = (req.headers['content-type'] ?? '').startsWith('multipart/');
    const body =
      !isMultipart && req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : null;
    const params = canonicalParams(req.query as Record<string, unknown>, body);
    const expected = Buffer.from(sign(secret, signingText(ts, nonce, path, params)), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new AppError(ResultCode.BAD_SIGNATURE, 'signatureInvalid');
    }
    // Only a correctly signed request spends a nonce, so garbage cannot fill the table.
    if (recent.has(nonce)) throw new AppError(ResultCode.BAD_SIGNATURE, 'signatureReplay');
    recent.add(nonce, now());
    if (isRead(req)) return nonces.record(nonce);
    if (!(await nonces.spend(nonce))) throw new AppError(ResultCode.BAD_SIGNATURE, 'signatureReplay');
  };
}

/**
 * The server's one way to send an HTTP request to another server (ADR 034): single-logout
 * callbacks, the CAS client's ticket validation, the SMS gateway, and anything added later (a lint
 * rule forbids `fetch` and `node:http` requests elsewhere in the server).
 *
 * - The address rule (platform/addresses.ts) holds for every address a request would reach: an IP
 *   literal is judged before anything is sent, a name is resolved once and judged on every address
 *   it gives, and the connection is made to that checked address (a second lookup could answer
 *   differently: DNS rebinding). Addresses the installation itself configured (SSO_URL, PUBLIC_URL
 *   for the CAS client, SMS_WEBHOOK_URL) are sent as `installation` and not judged: the rule guards
 *   against addresses that come from data, which operators write.
 * - Redirects are never followed: a 3xx is the answer.
 * - Every request has a deadline (connect, answer and body), and an answer is read up to a size.
 * - Refusals and results are counted in the metrics, by purpose.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { isIpLiteral, type AddressRule, type RefusalReason, type Verdict } from './addresses.js';
import type { Metrics, OutboundPurpose } from './metrics.js';

export type { OutboundPurpose };

/** A request the address rule refused: nothing was sent. */
export class OutboundRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly host: string,
  ) {
    super(`no request sent to ${host}: its address is ${reason.replace('_', '-')}, which is not allowed`);
    this.name = 'OutboundRefused';
  }
}

/** An answer larger than the caller reads. */
export class OutboundTooLarge extends Error {}

export interface OutboundCall {
  purpose: OutboundPurpose;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The whole request: connecting, the answer and its body. */
  timeoutMs: number;
  /** The largest answer body read (default 64 KiB); a larger one fails the request. 0: not read. */
  maxResponseBytes?: number;
  /** An address from the installation's configuration, not from data: not judged by the rule. */
  installation?: boolean;
}

export interface OutboundAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

const CONNECT_TIMEOUT_MS = 5_000;
/** Outer bounds of the agents; each request's own deadline is usually shorter. */
const AGENT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
/** Sockets per origin: a fan-out to one host (single logout) waits its turn instead of opening more. */
const CONNECTIONS_PER_ORIGIN = 8;

/** The refusal an error carries, however deep undici wrapped it. */
function refusalIn(err: unknown): OutboundRefused | null {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundRefused) return e;
  }
  return null;
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(err?: Error): unknown }, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw new OutboundTooLarge(`answer larger than ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createOutbound(deps: {
  rule: AddressRule;
  metrics: Pick<Metrics, 'outbound' | 'outboundRefused'>;
  /** How names are resolved (tests give their own); the system's resolver by default. */
  resolve?: Resolve;
}) {
  const { rule, metrics } = deps;
  const resolve = deps.resolve ?? systemResolve;

  /**
   * The connection's one lookup: every address the name has must pass, and the socket connects to
   * the address judged here (net.connect uses this answer; there is no second lookup).
   */
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname)
      .then((all) => {
        const wanted = all.filter((a) => !options.family || a.family === options.family);
        for (const a of all) {
          const verdict = rule.address(a.address);
          if (!verdict.ok) throw new OutboundRefused(verdict.reason, hostname);
        }
        if (wanted.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, '', 0));
  };
  const connector = buildConnector({ timeout: CONNECT_TIMEOUT_MS, lookup: checkedLookup });
  // An IP literal is never looked up: judged here, before a socket exists.
  const checkedConnect: buildConnector.connector = (opts, callback) => {
    if (isIpLiteral(opts.hostname)) {
      const verdict = rule.address(opts.hostname);
      if (!verdict.ok) return callback(new OutboundRefused(verdict.reason, opts.hostname), null);
    }
    connector(opts, callback);
  };
  const agentOptions = {
    headersTimeout: AGENT_TIMEOUT_MS,
    bodyTimeout: AGENT_TIMEOUT_MS,
    connections: CONNECTIONS_PER_ORIGIN,
  };
  const checked = new Agent({ ...agentOptions, connect: checkedConnect });
  const installation = new Agent({ ...agentOptions, connect: { timeout: CONNECT_TIMEOUT_MS } });

  const refused = (purpose: OutboundPurpose, r: OutboundRefused) => {
    metrics.outboundRefused(purpose, r.reason);
    metrics.outbound(purpose, 'refused');
    return r;
  };

  return {
    /**
     * What the rule says of an address before any request (registration): a refusal, `ok`, or null
     * for a name (judged when called, on what it then resolves to). A refusal is counted.
     */
    judge(url: URL, purpose: OutboundPurpose): Verdict | null {
      const verdict = rule.literal(url);
      // Counted as a refused address, not as a request: none was about to be sent.
      if (verdict && !verdict.ok) metrics.outboundRefused(purpose, verdict.reason);
      return verdict;
    },

    /**
     * Sends one request and reads its answer (never following a redirect). Throws OutboundRefused
     * when the address rule refuses it (nothing was sent), any other error when it failed.
     */
    async send(target: string | URL, call: OutboundCall): Promise<OutboundAnswer> {
      const url = new URL(target);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new Error(`not an http(s) address: ${url.protocol}`);
      if (!call.installation) {
        const verdict = rule.literal(url);
        if (verdict && !verdict.ok) throw refused(call.purpose, new OutboundRefused(verdict.reason, url.hostname));
      }
      try {
        const res = await request(url, {
          dispatcher: call.installation ? installation : checked,
          method: call.method ?? 'GET',
          headers: call.headers ?? {},
          body: call.body ?? null,
          signal: AbortSignal.timeout(call.timeoutMs),
        });
        const max = call.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
        // An answer not read is let go (dump reads a little, then closes the connection).
        const text = max === 0 ? (await res.body.dump(), '') : await readCapped(res.body, max);
        metrics.outbound(call.purpose, res.statusCode >= 200 && res.statusCode < 300 ? 'ok' : 'status');
        return { status: res.statusCode, headers: res.headers, text };
      } catch (err) {
        const refusal = refusalIn(err);
        if (refusal) throw refused(call.purpose, refusal);
        metrics.outbound(call.purpose, 'failed');
        throw err;
      }
    },

    /** Counts requests a caller chose not to send (over a cap). */
    dropped(purpose: OutboundPurpose, count: number): void {
      if (count > 0) metrics.outbound(purpose, 'dropped', count);
    },

    async close(): Promise<void> {
      // In-flight requests finish first (each has its deadline).
      await Promise.all([checked.close(), installation.close()]);
    },
  };
}

export type Outbound = ReturnType<typeof createOutbound>;

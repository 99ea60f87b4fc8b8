/**
 * A signed request from Node: the headers any client sends (the signing text of signing.ts under
 * HMAC-SHA256) for a path with its query and a JSON body. The one signer of the server's tests, the
 * browser tests' direct calls and the benchmarks. Node only (node:crypto), so it is its own entry
 * (`@portal/contracts/node-signing`), which the web app never imports; it signs with its own HMAC.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { canonicalParams, SIGNING_HEADERS, signingText } from './signing.js';

/** The query of an address as the server reads it: a key given several times keeps every value. */
function queryOf(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const prev = query[key];
    query[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return query;
}

/** The timestamp, nonce and signature headers for `pathAndQuery` with `body`, signed at `ts`. */
export function signRequest(
  secret: string,
  pathAndQuery: string,
  body?: Record<string, unknown> | null,
  ts: number = Date.now(),
): Record<string, string> {
  const [path, search] = pathAndQuery.split('?') as [string, string | undefined];
  const nonce = randomBytes(12).toString('hex');
  const text = signingText(String(ts), nonce, path, canonicalParams(queryOf(search ?? ''), body ?? null));
  return {
    [SIGNING_HEADERS.timestamp]: String(ts),
    [SIGNING_HEADERS.nonce]: nonce,
    [SIGNING_HEADERS.signature]: createHmac('sha256', secret).update(text).digest('hex'),
  };
}

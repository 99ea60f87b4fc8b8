/**
 * The canonical text that request signatures cover (docs/api.md#every-call). Both the web client and the
 * server build it with this one function and apply HMAC-SHA256 with their own crypto library.
 */

export const SIGNING_HEADERS = {
  timestamp: 'x-timestamp',
  nonce: 'x-nonce',
  signature: 'x-signature',
  token: 'authorization_front',
} as const;

export const NONCE_PATTERN = /^[A-Za-z0-9]{16,64}$/;

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * Query parameters plus top-level body fields; null, undefined and "" dropped; sorted by key then
 * value; joined as key=value with &, without encoding. A query key given several times contributes
 * each value; a body field that is an object or array contributes its JSON text.
 */
export function canonicalParams(query?: Record<string, unknown> | null, body?: Record<string, unknown> | null): string {
  const pairs: Array<[string, string]> = [];
  const add = (key: string, value: unknown) => {
    if (value === null || value === undefined || value === '') return;
    pairs.push([key, asText(value)]);
  };
  for (const [key, raw] of Object.entries(query ?? {})) {
    if (Array.isArray(raw)) raw.forEach((v) => add(key, v));
    else add(key, raw);
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [key, raw] of Object.entries(body)) add(key, raw);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

export function signingText(timestamp: string, nonce: string, path: string, params: string): string {
  return `${timestamp}\n${nonce}\n${path}\n${params}`;
}

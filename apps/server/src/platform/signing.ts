/**
 * Verifies signed requests (ARCHITECTURE §4): X-Timestamp within ±300 s, X-Nonce not seen in that
 * window (kept in PostgreSQL so replays are caught across instances), and X-Signature =
 * hex(HMAC-SHA256(secret, ts \n nonce \n path \n params)) compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { LIMITS, NONCE_PATTERN, ResultCode, SIGNING_HEADERS, canonicalParams, signingText } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { AppError } from './errors.js';

export function sign(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function createSignatureVerifier(db: Db, secret: string, now: () => number = Date.now) {
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
    const res = await db.execute(
      sql`INSERT INTO request_nonces (nonce) VALUES (${nonce}) ON CONFLICT (nonce) DO NOTHING RETURNING 1`,
    );
    if (res.rows.length === 0) throw new AppError(ResultCode.BAD_SIGNATURE, 'signatureReplay');
  };
}

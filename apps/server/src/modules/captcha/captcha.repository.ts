import type pg from 'pg';
import { named } from '../../db/named.js';

const CAPTCHA_SAVE = named(
  'captcha_save',
  `INSERT INTO image_captchas (client_id, answer, expires_at)
   VALUES ($1, $2, now() + make_interval(secs => $3))
   ON CONFLICT (client_id) DO UPDATE SET answer = EXCLUDED.answer, expires_at = EXCLUDED.expires_at`,
);
const CAPTCHA_TAKE = named<{ answer: string }>(
  'captcha_take',
  'DELETE FROM image_captchas WHERE client_id = $1 AND expires_at > now() RETURNING answer',
);
const CAPTCHA_CHALLENGE_SAVE = named(
  'captcha_challenge_save',
  `INSERT INTO captcha_challenges (token, type, answer, secret_key, expires_at)
   VALUES ($1, $2, $3::jsonb, $4, now() + make_interval(secs => $5))`,
);
const CAPTCHA_CHALLENGE_TAKE = named<{ type: string; answer: unknown; secretKey: string | null }>(
  'captcha_challenge_take',
  `DELETE FROM captcha_challenges WHERE token = $1 AND expires_at > now()
   RETURNING type, answer, secret_key AS "secretKey"`,
);
const CAPTCHA_VERIFICATION_SAVE = named(
  'captcha_verification_save',
  `INSERT INTO captcha_verifications (value, expires_at) VALUES ($1, now() + make_interval(secs => $2))
   ON CONFLICT (value) DO NOTHING`,
);
const CAPTCHA_VERIFICATION_TAKE = named(
  'captcha_verification_take',
  'DELETE FROM captcha_verifications WHERE value = $1 AND expires_at > now() RETURNING 1',
);

/** `pool`: the relaxed pool (db/client.ts connectRelaxed); statements are named, planned once. */
export function createCaptchaRepository(pool: pg.Pool) {
  return {
    /** A new fetch by the same client replaces its previous challenge. */
    async save(clientId: string, answer: string, ttlSeconds: number): Promise<void> {
      await CAPTCHA_SAVE(pool, [clientId, answer, ttlSeconds]);
    },
    /** Deletes the challenge whatever the answer: a captcha is good for one attempt. */
    async take(clientId: string): Promise<string | null> {
      const res = await CAPTCHA_TAKE(pool, [clientId]);
      return res.rows[0]?.answer ?? null;
    },

    /** Stores a behavioural challenge under its token. */
    async saveChallenge(c: {
      token: string;
      type: string;
      answer: unknown;
      secretKey: string | null;
      ttlSeconds: number;
    }) {
      await CAPTCHA_CHALLENGE_SAVE(pool, [c.token, c.type, JSON.stringify(c.answer), c.secretKey, c.ttlSeconds]);
    },
    /** Takes the live challenge of `token` away: one check per token, pass or fail. */
    async takeChallenge(token: string): Promise<{ type: string; answer: unknown; secretKey: string | null } | null> {
      const res = await CAPTCHA_CHALLENGE_TAKE(pool, [token]);
      return res.rows[0] ?? null;
    },
    async saveVerification(value: string, ttlSeconds: number): Promise<void> {
      await CAPTCHA_VERIFICATION_SAVE(pool, [value, ttlSeconds]);
    },
    /** True once for a live verification; it is spent by the first business call that shows it. */
    async takeVerification(value: string): Promise<boolean> {
      const res = await CAPTCHA_VERIFICATION_TAKE(pool, [value]);
      return (res.rowCount ?? 0) > 0;
    },
  };
}

export type CaptchaRepository = ReturnType<typeof createCaptchaRepository>;

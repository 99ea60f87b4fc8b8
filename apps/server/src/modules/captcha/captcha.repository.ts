import type pg from 'pg';

/** `pool`: the relaxed pool (db/client.ts connectRelaxed); statements are named, planned once. */
export function createCaptchaRepository(pool: pg.Pool) {
  return {
    /** A new fetch by the same client replaces its previous challenge. */
    async save(clientId: string, answer: string, ttlSeconds: number): Promise<void> {
      await pool.query({
        name: 'captcha_save',
        text: `INSERT INTO image_captchas (client_id, answer, expires_at)
          VALUES ($1, $2, now() + make_interval(secs => $3))
          ON CONFLICT (client_id) DO UPDATE SET answer = EXCLUDED.answer, expires_at = EXCLUDED.expires_at`,
        values: [clientId, answer, ttlSeconds],
      });
    },
    /** Deletes the challenge whatever the answer: a captcha is good for one attempt. */
    async take(clientId: string): Promise<string | null> {
      const res = await pool.query<{ answer: string }>({
        name: 'captcha_take',
        text: 'DELETE FROM image_captchas WHERE client_id = $1 AND expires_at > now() RETURNING answer',
        values: [clientId],
      });
      return res.rows[0]?.answer ?? null;
    },
  };
}

export type CaptchaRepository = ReturnType<typeof createCaptchaRepository>;

import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export function createCaptchaRepository(db: Db) {
  return {
    /** A new fetch by the same client replaces its previous challenge. */
    async save(clientId: string, answer: string, ttlSeconds: number): Promise<void> {
      await db.execute(sql`
        INSERT INTO image_captchas (client_id, answer, expires_at)
        VALUES (${clientId}, ${answer}, now() + make_interval(secs => ${ttlSeconds}))
        ON CONFLICT (client_id) DO UPDATE SET answer = EXCLUDED.answer, expires_at = EXCLUDED.expires_at`);
    },
    /** Deletes the challenge whatever the answer: a captcha is good for one attempt. */
    async take(clientId: string): Promise<string | null> {
      const res = await db.$client.query<{ answer: string }>({
        name: 'captcha_take',
        text: 'DELETE FROM image_captchas WHERE client_id = $1 AND expires_at > now() RETURNING answer',
        values: [clientId],
      });
      return res.rows[0]?.answer ?? null;
    },
  };
}

export type CaptchaRepository = ReturnType<typeof createCaptchaRepository>;

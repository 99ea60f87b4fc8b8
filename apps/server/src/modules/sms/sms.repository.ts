import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface CodeCounts {
  /** Seconds since the newest code for this phone and purpose, or null. */
  sinceLastSeconds: number | null;
  phoneToday: number;
  ipToday: number;
}

export function createSmsRepository(db: Db) {
  return {
    /**
     * Runs `work` holding a lock on this phone and purpose (and the address), so two requests at
     * once cannot both pass the cooldown or the caps.
     */
    async locked<T>(tenantId: number, phone: string, purpose: number, ip: string, work: (tx: Tx) => Promise<T>) {
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`sms:${tenantId}:${phone}:${purpose}`}))`);
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`sms-ip:${ip}`}))`);
        return work(tx);
      });
    },

    async counts(tx: Tx, tenantId: number, phone: string, purpose: number, ip: string): Promise<CodeCounts> {
      const res = await tx.execute<{ since: number | null; phone_today: number; ip_today: number }>(sql`
        SELECT
          (SELECT EXTRACT(EPOCH FROM now() - max(created_at))::float8 FROM sms_codes
            WHERE tenant_id = ${tenantId} AND phone = ${phone} AND purpose = ${purpose}) AS since,
          (SELECT count(*)::int FROM sms_codes
            WHERE tenant_id = ${tenantId} AND phone = ${phone} AND created_at > now() - interval '1 day') AS phone_today,
          (SELECT count(*)::int FROM sms_codes WHERE ip = ${ip} AND created_at > now() - interval '1 day') AS ip_today`);
      const r = res.rows[0]!;
      return {
        sinceLastSeconds: r.since === null ? null : Number(r.since),
        phoneToday: r.phone_today,
        ipToday: r.ip_today,
      };
    },

    /** Ends the phone's earlier codes for the purpose and stores the new one's hash; returns its id. */
    async replaceCode(
      tx: Tx,
      c: { tenantId: number; phone: string; purpose: number; codeHash: string; ip: string; ttlSeconds: number },
    ): Promise<number> {
      await tx.execute(sql`
        UPDATE sms_codes SET ended_at = now()
        WHERE tenant_id = ${c.tenantId} AND phone = ${c.phone} AND purpose = ${c.purpose} AND ended_at IS NULL`);
      const res = await tx.execute<{ id: number }>(sql`
        INSERT INTO sms_codes (tenant_id, phone, purpose, code_hash, ip, expires_at)
        VALUES (${c.tenantId}, ${c.phone}, ${c.purpose}, ${c.codeHash}, ${c.ip},
                now() + make_interval(secs => ${c.ttlSeconds}))
        RETURNING id`);
      return Number(res.rows[0]!.id);
    },

    /** A code whose message could not be sent: as if it had never been asked for. */
    async forget(id: number): Promise<void> {
      await db.execute(sql`DELETE FROM sms_codes WHERE id = ${id}`);
    },

    /**
     * One attempt at the live code of this phone and purpose, in one statement: the right hash
     * spends it; a wrong one counts, and the last allowed wrong one voids it.
     */
    async attempt(
      tenantId: number,
      phone: string,
      purpose: number,
      codeHash: string,
      maxAttempts: number,
    ): Promise<'ok' | 'wrong' | 'none'> {
      const res = await db.execute<{ ok: boolean }>(sql`
        UPDATE sms_codes SET
          attempts = attempts + 1,
          ended_at = CASE WHEN code_hash = ${codeHash} OR attempts + 1 >= ${maxAttempts} THEN now() END
        WHERE id = (
          SELECT id FROM sms_codes
          WHERE tenant_id = ${tenantId} AND phone = ${phone} AND purpose = ${purpose}
            AND ended_at IS NULL AND expires_at > now()
          ORDER BY created_at DESC LIMIT 1 FOR UPDATE)
        RETURNING code_hash = ${codeHash} AS ok`);
      const row = res.rows[0];
      return !row ? 'none' : row.ok ? 'ok' : 'wrong';
    },

    async addToOutbox(tenantId: number, phone: string, body: string): Promise<void> {
      await db.execute(sql`INSERT INTO sms_outbox (tenant_id, phone, body) VALUES (${tenantId}, ${phone}, ${body})`);
    },
  };
}

export type SmsRepository = ReturnType<typeof createSmsRepository>;

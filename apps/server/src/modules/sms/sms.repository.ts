import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { keyedLock } from '../../db/locks.js';
import { smsCodes, smsOutbox } from '../../db/schema.js';

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
        await tx.execute(keyedLock('sms', tenantId, phone, purpose));
        await tx.execute(keyedLock('smsIp', ip));
        return work(tx);
      });
    },

    async counts(tx: Tx, tenantId: number, phone: string, purpose: number, ip: string): Promise<CodeCounts> {
      const dayAgo = sql`now() - interval '1 day'`;
      const [mine] = await tx
        .select({
          since: sql<
            number | null
          >`EXTRACT(EPOCH FROM now() - max(${smsCodes.createdAt}) FILTER (WHERE ${smsCodes.purpose} = ${purpose}))::float8`,
          today: sql<number>`count(*) FILTER (WHERE ${smsCodes.createdAt} > ${dayAgo})`.mapWith(Number),
        })
        .from(smsCodes)
        .where(and(eq(smsCodes.tenantId, tenantId), eq(smsCodes.phone, phone)));
      const [fromIp] = await tx
        .select({ n: count() })
        .from(smsCodes)
        .where(and(eq(smsCodes.ip, ip), gt(smsCodes.createdAt, dayAgo)));
      return {
        sinceLastSeconds: mine?.since == null ? null : Number(mine.since),
        phoneToday: mine?.today ?? 0,
        ipToday: fromIp?.n ?? 0,
      };
    },

    /** Ends the phone's earlier codes for the purpose and stores the new one's hash; returns its id. */
    async replaceCode(
      tx: Tx,
      c: { tenantId: number; phone: string; purpose: number; codeHash: string; ip: string; ttlSeconds: number },
    ): Promise<number> {
      await tx
        .update(smsCodes)
        .set({ endedAt: sql`now()` })
        .where(
          and(
            eq(smsCodes.tenantId, c.tenantId),
            eq(smsCodes.phone, c.phone),
            eq(smsCodes.purpose, c.purpose),
            isNull(smsCodes.endedAt),
          ),
        );
      const [row] = await tx
        .insert(smsCodes)
        .values({
          tenantId: c.tenantId,
          phone: c.phone,
          purpose: c.purpose,
          codeHash: c.codeHash,
          ip: c.ip,
          expiresAt: sql`now() + make_interval(secs => ${c.ttlSeconds})`,
        })
        .returning({ id: smsCodes.id });
      return row!.id;
    },

    /** A code whose message could not be sent: as if it had never been asked for. */
    async forget(id: number): Promise<void> {
      await db.delete(smsCodes).where(eq(smsCodes.id, id));
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
      const live = db
        .select({ id: smsCodes.id })
        .from(smsCodes)
        .where(
          and(
            eq(smsCodes.tenantId, tenantId),
            eq(smsCodes.phone, phone),
            eq(smsCodes.purpose, purpose),
            isNull(smsCodes.endedAt),
            gt(smsCodes.expiresAt, sql`now()`),
          ),
        )
        .orderBy(desc(smsCodes.createdAt))
        .limit(1)
        .for('update');
      const right = sql<boolean>`${smsCodes.codeHash} = ${codeHash}`;
      const [row] = await db
        .update(smsCodes)
        .set({
          attempts: sql`${smsCodes.attempts} + 1`,
          endedAt: sql`CASE WHEN ${right} OR ${smsCodes.attempts} + 1 >= ${maxAttempts} THEN now() END`,
        })
        .where(eq(smsCodes.id, live))
        .returning({ ok: right });
      return !row ? 'none' : row.ok ? 'ok' : 'wrong';
    },

    async addToOutbox(tenantId: number, phone: string, body: string): Promise<void> {
      await db.insert(smsOutbox).values({ tenantId, phone, body });
    },
  };
}

export type SmsRepository = ReturnType<typeof createSmsRepository>;

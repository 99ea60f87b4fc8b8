import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export function createAccountRepository(db: Db) {
  return {
    /** The user with this username and this mobile number, or null. */
    async userByAccountAndMobile(tenantId: number, username: string, mobile: string): Promise<number | null> {
      const res = await db.execute<{ id: number }>(sql`
        SELECT id FROM users WHERE tenant_id = ${tenantId} AND username = ${username} AND mobile = ${mobile}`);
      return res.rows[0] ? Number(res.rows[0].id) : null;
    },

    async createReset(userId: number, tokenHash: string, ttlSeconds: number): Promise<void> {
      await db.execute(sql`
        INSERT INTO password_resets (token_hash, user_id, expires_at)
        VALUES (${tokenHash}, ${userId}, now() + make_interval(secs => ${ttlSeconds}))`);
    },

    /** The live reset's user (and username), or null; the grant is not spent yet. */
    async liveReset(tokenHash: string): Promise<{ userId: number; username: string } | null> {
      const res = await db.execute<{ user_id: number; username: string }>(sql`
        SELECT r.user_id, u.username FROM password_resets r JOIN users u ON u.id = r.user_id
        WHERE r.token_hash = ${tokenHash} AND r.used_at IS NULL AND r.expires_at > now()`);
      const r = res.rows[0];
      return r ? { userId: Number(r.user_id), username: r.username } : null;
    },

    async username(userId: number): Promise<string> {
      const res = await db.execute<{ username: string }>(sql`SELECT username FROM users WHERE id = ${userId}`);
      return res.rows[0]!.username;
    },

    /**
     * Sets the password and ends the user's sessions (all but `keepSession`) and sign-on sessions,
     * spending the reset grant when one is given; in one transaction. False when the grant was
     * spent meanwhile.
     */
    async setPassword(p: {
      userId: number;
      passwordHash: string;
      ip: string;
      action: string;
      resetTokenHash?: string;
      keepSession?: string;
    }): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (p.resetTokenHash) {
          const spent = await tx.execute(sql`
            UPDATE password_resets SET used_at = now()
            WHERE token_hash = ${p.resetTokenHash} AND used_at IS NULL AND expires_at > now() RETURNING 1`);
          if (spent.rows.length === 0) return false;
        }
        await tx.execute(sql`
          UPDATE users SET password_hash = ${p.passwordHash}, failed_logins = 0, locked_until = NULL
          WHERE id = ${p.userId}`);
        await tx.execute(sql`
          UPDATE sessions SET revoked_at = now()
          WHERE user_id = ${p.userId} AND revoked_at IS NULL AND id IS DISTINCT FROM ${p.keepSession ?? null}::uuid`);
        await tx.execute(
          sql`UPDATE sso_sessions SET ended_at = now() WHERE user_id = ${p.userId} AND ended_at IS NULL`,
        );
        await tx.execute(sql`
          INSERT INTO audit_log (tenant_id, user_id, action, ip)
          SELECT tenant_id, id, ${p.action}, ${p.ip} FROM users WHERE id = ${p.userId}`);
        return true;
      });
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;

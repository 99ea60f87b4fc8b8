/**
 * Watches a test database for writes to what it holds for people: a refused call must leave it as
 * it was. Triggers record every committed insert, delete and change into `test_writes`, except the
 * bookkeeping that refusals write on purpose: nonces, rate-limit windows and locks, spent captchas
 * and SMS codes (single use), failed-login counters, sign-on tickets spent by a failed validation,
 * the OpenID Provider's signing keys (made on first use), the audit log and the login history (a
 * refused sign-in is an attempt it records), and a session's last-seen mark.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';

/** Tables written by refusals by design. */
const BOOKKEEPING = new Set([
  'request_nonces',
  'rate_limits',
  'rate_locks',
  'image_captchas',
  'captcha_challenges',
  'captcha_verifications',
  'audit_log',
  'login_events',
  'sso_tickets',
  // The OpenID Provider's signing keys, made on a tenant's first protocol request (even a refused one).
  'oidc_keys',
  '__drizzle_migrations',
]);

/** Columns that refusals may change in a watched table (lockout counters, spent codes, last use). */
const IGNORED_COLUMNS: Record<string, string[]> = {
  users: ['failed_logins', 'last_failed_at', 'locked_until'],
  sms_codes: ['attempts', 'ended_at'],
  sso_sessions: ['last_used_at'],
  sessions: ['last_seen_at'],
};

export interface WriteWatch {
  /** How many writes were recorded so far. */
  count(): Promise<number>;
  /** The writes recorded after the first `after`. */
  since(after: number): Promise<Array<{ tbl: string; op: string; row: unknown }>>;
  stop(): Promise<void>;
}

export async function watchWrites(db: Db): Promise<WriteWatch> {
  await db.execute(sql`
    CREATE TABLE test_writes (id bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL, row jsonb)`);
  await db.execute(sql`
    CREATE FUNCTION test_record_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) - COALESCE(TG_ARGV, '{}')) = (to_jsonb(NEW) - COALESCE(TG_ARGV, '{}')) THEN RETURN NULL; END IF;
      INSERT INTO test_writes (tbl, op, row)
        VALUES (TG_TABLE_NAME, TG_OP, CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END);
      RETURN NULL;
    END $$`);
  const tables = await db.execute<{ name: string }>(
    sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'test_writes'`,
  );
  for (const { name } of tables.rows) {
    if (BOOKKEEPING.has(name)) continue;
    const args = (IGNORED_COLUMNS[name] ?? []).map((c) => `'${c}'`).join(', ');
    await db.execute(
      sql.raw(
        `CREATE TRIGGER test_writes AFTER INSERT OR UPDATE OR DELETE ON "${name}" FOR EACH ROW EXECUTE FUNCTION test_record_write(${args})`,
      ),
    );
  }
  return {
    async count() {
      const { rows } = await db.execute<{ n: string }>(sql`SELECT COALESCE(max(id), 0) AS n FROM test_writes`);
      return Number(rows[0]!.n);
    },
    async since(after) {
      const { rows } = await db.execute<{ tbl: string; op: string; row: unknown }>(
        sql`SELECT tbl, op, row FROM test_writes WHERE id > ${after} ORDER BY id`,
      );
      return rows;
    },
    async stop() {
      for (const { name } of tables.rows) await db.execute(sql.raw(`DROP TRIGGER IF EXISTS test_writes ON "${name}"`));
    },
  };
}

/**
 * Database statistics (round trips per request): PostgreSQL's counters before and after a run, per
 * request measured.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';
import { round } from '../common.js';

export interface DbSnapshot {
  xactCommit: number;
  xactRollback: number;
  tupInserted: number;
  tables: Record<string, { seqScan: number; idxScan: number; inserted: number }>;
  walRecords: number | null;
  walFsyncs: number | null;
}

export async function dbSnapshot(db: Db): Promise<DbSnapshot> {
  const database = await db.execute<{ xact_commit: string; xact_rollback: string; tup_inserted: string }>(
    sql`SELECT xact_commit, xact_rollback, tup_inserted FROM pg_stat_database WHERE datname = current_database()`,
  );
  const tables = await db.execute<{ relname: string; seq_scan: string; idx_scan: string | null; n_tup_ins: string }>(
    sql`SELECT relname, seq_scan, idx_scan, n_tup_ins FROM pg_stat_user_tables
        WHERE relname IN ('request_nonces', 'sessions', 'users', 'tenants', 'enterprises', 'applications')`,
  );
  let walRecords: number | null = null;
  let walFsyncs: number | null = null;
  try {
    const wal = await db.execute<{ wal_records: string }>(sql`SELECT wal_records FROM pg_stat_wal`);
    walRecords = Number(wal.rows[0]?.wal_records ?? NaN);
    const io = await db.execute<{ fsyncs: string | null }>(
      sql`SELECT sum(fsyncs) AS fsyncs FROM pg_stat_io WHERE object = 'wal'`,
    );
    walFsyncs = io.rows[0]?.fsyncs == null ? null : Number(io.rows[0].fsyncs);
  } catch {
    // older PostgreSQL: no pg_stat_io WAL rows; the other figures still tell the story
  }
  const row = database.rows[0]!;
  return {
    xactCommit: Number(row.xact_commit),
    xactRollback: Number(row.xact_rollback),
    tupInserted: Number(row.tup_inserted),
    tables: Object.fromEntries(
      tables.rows.map((t) => [
        t.relname,
        { seqScan: Number(t.seq_scan), idxScan: Number(t.idx_scan ?? 0), inserted: Number(t.n_tup_ins) },
      ]),
    ),
    walRecords,
    walFsyncs,
  };
}

export function perRequest(before: DbSnapshot, after: DbSnapshot, requests: number) {
  const per = (a: number, b: number) => round((a - b) / Math.max(1, requests), 3);
  const tables: Record<string, { seqScan: number; idxScan: number; inserted: number }> = {};
  for (const [name, t] of Object.entries(after.tables)) {
    const b = before.tables[name] ?? { seqScan: 0, idxScan: 0, inserted: 0 };
    tables[name] = {
      seqScan: per(t.seqScan, b.seqScan),
      idxScan: per(t.idxScan, b.idxScan),
      inserted: per(t.inserted, b.inserted),
    };
  }
  return {
    requests,
    statementsPerRequest: per(after.xactCommit + after.xactRollback, before.xactCommit + before.xactRollback),
    rowsInsertedPerRequest: per(after.tupInserted, before.tupInserted),
    walRecordsPerRequest:
      after.walRecords !== null && before.walRecords !== null ? per(after.walRecords, before.walRecords) : null,
    walFsyncsPerRequest:
      after.walFsyncs !== null && before.walFsyncs !== null ? per(after.walFsyncs, before.walFsyncs) : null,
    tables,
  };
}

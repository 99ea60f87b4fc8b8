/**
 * One transaction around a piece of work (scope.ts), on the run's real PostgreSQL: what a scoped
 * database does inside and outside a scope, and when the tasks queued for the commit run.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '../test/harness.js';
import { connect, type Db } from './client.js';
import { ensureDatabase } from './open.js';
import { afterCommit, inOneTransaction, scopedDb } from './scope.js';

let pool: Db;
let db: Db;
let other: Db;

beforeAll(async () => {
  const name = `scope_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(process.env.TEST_PG_ADMIN_URL!, name);
  pool = connect(databaseUrl(name), 4);
  other = connect(databaseUrl(name), 1);
  db = scopedDb(pool);
  await pool.execute(sql`CREATE TABLE things (name text PRIMARY KEY)`);
});
afterAll(async () => {
  await pool?.$client.end();
  await other?.$client.end();
});

const names = async (from: Db = other) =>
  (await from.execute<{ name: string }>(sql`SELECT name FROM things ORDER BY name`)).rows.map((r) => r.name);
const insert = (name: string) => db.execute(sql`INSERT INTO things (name) VALUES (${name})`);

describe('one transaction around a piece of work', () => {
  it('runs every statement of the scoped database in it, nested transactions as savepoints', async () => {
    await expect(
      inOneTransaction(db, async () => {
        await insert('a');
        await db.transaction(async (tx) => tx.execute(sql`INSERT INTO things (name) VALUES ('b')`));
        // Not visible to anyone else yet.
        expect(await names()).toEqual([]);
        expect(await names(db)).toEqual(['a', 'b']);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await names()).toEqual([]);
  });

  it('does the tasks queued for the commit after it, in order, and drops them on a rollback', async () => {
    const seen: string[][] = [];
    await inOneTransaction(db, async () => {
      await insert('c');
      await afterCommit(async () => void seen.push(await names()));
      await afterCommit(async () => void seen.push(['second']));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([['c'], ['second']]);

    const dropped: string[] = [];
    await inOneTransaction(db, async () => {
      await afterCommit(async () => void dropped.push('ran'));
      throw new Error('no');
    }).catch(() => undefined);
    expect(dropped).toEqual([]);
  });

  it('leaves the database as it is outside a scope, and keeps concurrent scopes apart', async () => {
    await insert('d');
    expect(await names()).toContain('d');
    let now = false;
    await afterCommit(async () => void (now = true));
    expect(now).toBe(true);

    // The first scope stays open until the second has committed, then is undone.
    let committed!: () => void;
    const other = new Promise<void>((r) => (committed = r));
    const slow = inOneTransaction(db, async () => {
      await insert('e');
      await other;
      throw new Error('undo e');
    }).catch(() => 'undone');
    await inOneTransaction(db, async () => insert('f'));
    committed();
    expect(await slow).toBe('undone');
    expect(await names()).toEqual(['c', 'd', 'f']);
  });
});

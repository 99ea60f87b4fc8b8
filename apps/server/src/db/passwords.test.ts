/**
 * Storing a new password (passwords.ts), the one write of every setter, on a copy of the seeded
 * database: what it sets, and whose sessions it ends — the user's only, all or all but one.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/harness.js';
import { connect, type Db } from './client.js';
import { storePassword } from './passwords.js';
import { sessions, ssoSessions, tenants, users } from './schema.js';

let db: Db;
let tenantId: number;
let member: number;
let other: number;

const userOf = async (username: string) =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.username, username)))
  )[0]!.id;

const openSession = async (userId: number) =>
  (
    await db
      .insert(sessions)
      .values({ tenantId, userId, expiresAt: sql`now() + interval '1 hour'` })
      .returning({ id: sessions.id })
  )[0]!.id;

const openSignOn = async (userId: number) =>
  (
    await db
      .insert(ssoSessions)
      .values({
        tenantId,
        userId,
        cookieHash: randomBytes(16).toString('hex'),
        expiresAt: sql`now() + interval '1 hour'`,
      })
      .returning({ id: ssoSessions.id })
  )[0]!.id;

const liveSessions = async (ids: string[]) =>
  (await db.select({ id: sessions.id, revokedAt: sessions.revokedAt }).from(sessions).where(inArray(sessions.id, ids)))
    .filter((s) => s.revokedAt === null)
    .map((s) => s.id)
    .sort();

const liveSignOns = async (ids: string[]) =>
  (
    await db
      .select({ id: ssoSessions.id, endedAt: ssoSessions.endedAt })
      .from(ssoSessions)
      .where(inArray(ssoSessions.id, ids))
  )
    .filter((s) => s.endedAt === null)
    .map((s) => s.id)
    .sort();

beforeAll(async () => {
  db = connect(await freshDatabase('passwords'), 2);
  tenantId = (await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'demo')))[0]!.id;
  member = await userOf('member');
  other = await userOf('admin');
});
afterAll(async () => {
  await db?.$client.end();
});

describe('storing a new password', () => {
  it("keeps the caller's own session, ends the user's others and every sign-on session, and nobody else's", async () => {
    const [kept, ended, theirs] = [await openSession(member), await openSession(member), await openSession(other)];
    const [signOn, theirSignOn] = [await openSignOn(member), await openSignOn(other)];
    await db
      .update(users)
      .set({ failedLogins: 4, lockedUntil: sql`now() + interval '1 hour'`, lastFailedAt: sql`now()` })
      .where(eq(users.id, member));

    expect(await storePassword(db, member, { passwordHash: 'h1', temporary: false, keepSession: kept })).toBe(tenantId);

    expect(await liveSessions([kept, ended, theirs])).toEqual([kept, theirs].sort());
    expect(await liveSignOns([signOn, theirSignOn])).toEqual([theirSignOn]);
    const [row] = await db.select().from(users).where(eq(users.id, member));
    expect(row).toMatchObject({
      passwordHash: 'h1',
      mustChangePassword: false,
      failedLogins: 0,
      lockedUntil: null,
      lastFailedAt: null,
    });
  });

  it("ends every session of the user when someone else sets it, marked temporary; none when there's no such user", async () => {
    const [one, two] = [await openSession(member), await openSession(member)];
    await storePassword(db, member, { passwordHash: 'h2', temporary: true });
    expect(await liveSessions([one, two])).toEqual([]);
    const [row] = await db
      .select({ mustChange: users.mustChangePassword, hash: users.passwordHash })
      .from(users)
      .where(eq(users.id, member));
    expect(row).toEqual({ mustChange: true, hash: 'h2' });
    expect(await storePassword(db, 2 ** 31 - 1, { passwordHash: 'h3', temporary: true })).toBeNull();
  });
});

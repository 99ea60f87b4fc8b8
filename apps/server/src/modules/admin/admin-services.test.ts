/**
 * The operators' console's rules, called on its services without HTTP (ADR 038): the gate (who, on
 * which tenant), and what each area refuses, on a real database through the test harness.
 */
import { DEFAULT_PASSWORD_RULES, ResultCode } from '@portal/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../db/client.js';
import { menus, roles, sessions, tenants, userRoles, users } from '../../db/schema.js';
import type { Invalidation } from '../../platform/invalidation.js';
import { createPasswords } from '../../platform/passwords.js';
import { createPermissionGuard } from '../../platform/permissions.js';
import type { ActiveSession } from '../../platform/session.js';
import { freshDatabase } from '../../test/harness.js';
import { createAdminAccessRepository } from './access/access.repository.js';
import { createAdminAccessService } from './access/access.service.js';
import { createAdminMenusRepository } from './menus/menus.repository.js';
import { createAdminMenusService } from './menus/menus.service.js';
import { createOperatorsRepository } from './operators.repository.js';
import { createOperatorGate, type Caller } from './operators.service.js';
import { createAdminRecordsRepository } from './records/records.repository.js';
import { createAdminRecordsService } from './records/records.service.js';
import { createAdminTenantsRepository } from './tenants/tenants.repository.js';
import { createAdminTenantsService } from './tenants/tenants.service.js';
import { createAdminUsersRepository } from './users/users.repository.js';
import { createAdminUsersService } from './users/users.service.js';

let db: Db;
const published: Invalidation[] = [];
const bus = { publish: async (e: Invalidation) => void published.push(e) };
// Passwords travel in clear here: the rule and the hash are the real ones.
const passwords = createPasswords({
  decryptor: { decrypt: (cipher) => cipher },
  rulesOf: async () => DEFAULT_PASSWORD_RULES,
  recentHashes: async () => [],
});

let operatorOf: ReturnType<typeof createOperatorGate>;
let demo: number;
let platform: number;
/** The demo's operator acting as 园区运营, a member, and the platform's operator. */
let operator: ActiveSession;
let member: ActiveSession;
let platformOperator: ActiveSession;

async function sessionOf(tenantId: number, username: string, roleCode: string | null): Promise<ActiveSession> {
  const [user] = await db
    .select({ id: users.id, defaultRoleId: users.defaultRoleId })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.username, username)));
  const roleId = roleCode
    ? (
        await db
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.tenantId, tenantId), eq(roles.code, roleCode)))
      )[0]!.id
    : user!.defaultRoleId;
  const [row] = await db
    .insert(sessions)
    .values({ tenantId, userId: user!.id, roleId, expiresAt: sql`now() + interval '1 hour'` })
    .returning({ id: sessions.id });
  return {
    id: row!.id,
    userId: user!.id,
    tenantId,
    roleId,
    applicationId: null,
    workbenchId: null,
    enterpriseId: null,
  };
}

/** The AppError a call ends with: its result code and message key. */
async function refusal(work: Promise<unknown>): Promise<{ code: number; key: string }> {
  try {
    await work;
  } catch (err) {
    const { code, key } = err as { code: number; key: string };
    return { code, key };
  }
  throw new Error('the call was not refused');
}

beforeAll(async () => {
  db = connect(await freshDatabase('adm'), 4);
  operatorOf = createOperatorGate({ repo: createOperatorsRepository(db), guard: createPermissionGuard(db) });
  const idOf = async (code: string) =>
    (await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code)))[0]!.id;
  demo = await idOf('demo');
  platform = await idOf('platform');
  operator = await sessionOf(demo, 'admin', 'park_operator');
  member = await sessionOf(demo, 'member', null);
  platformOperator = await sessionOf(platform, 'platform', null);
});
afterAll(async () => {
  await db?.$client.end();
});

describe('the operators gate', () => {
  it('refuses a session whose role does not hold system:manage', async () => {
    expect(await refusal(operatorOf({ session: member }))).toEqual({
      code: ResultCode.NO_PERMISSION,
      key: 'noPermission',
    });
  });

  it('keeps a tenant operator to its own tenant, whether the tenant named exists or not', async () => {
    expect(await operatorOf({ session: operator })).toMatchObject({ tenantId: demo, platform: false });
    expect(await operatorOf({ session: operator, tenant: ' demo ' })).toMatchObject({ tenantId: demo });
    for (const tenant of ['platform', 'no-such-park'])
      expect(await refusal(operatorOf({ session: operator, tenant }))).toEqual({
        code: ResultCode.NO_PERMISSION,
        key: 'operatorOwnTenant',
      });
  });

  it('lets a platform operator act on the tenant it names, and tells which for the audit row', async () => {
    const told: number[] = [];
    const caller: Caller = { session: platformOperator, tenant: 'demo', actsOn: (id) => told.push(id) };
    expect(await operatorOf(caller)).toMatchObject({ tenantId: demo, platform: true });
    expect(told).toEqual([demo]);
    // Its own tenant, named or not, is no other tenant: nothing to tell.
    expect(await operatorOf({ ...caller, tenant: 'platform' })).toMatchObject({ tenantId: platform });
    expect(told).toEqual([demo]);
    expect(await refusal(operatorOf({ session: platformOperator, tenant: 'no-such-park' }))).toEqual({
      code: ResultCode.NOT_FOUND,
      key: 'tenantUnknown',
    });
  });
});

describe('the users service', () => {
  const service = () =>
    createAdminUsersService({
      repo: createAdminUsersRepository(db),
      operatorOf,
      passwords,
      bus,
      phonePattern: '^1[3-9]\\d{9}$',
    });

  it('sets no password of the operator themself, nor one the rule refuses', async () => {
    const admin = service();
    expect(await refusal(admin.setPassword({ session: operator }, operator.userId, 'Other@2026!', true))).toEqual({
      code: ResultCode.BAD_REQUEST,
      key: 'operatorSelf',
    });
    expect(await refusal(admin.setPassword({ session: operator }, member.userId, 'short', true))).toEqual({
      code: ResultCode.BAD_REQUEST,
      key: 'passwordTooShort',
    });
    const [live] = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.id, member.id), isNull(sessions.revokedAt)));
    expect(live).toBeDefined();
  });

  it('a temporary password ends every session of the user and tells every instance', async () => {
    const admin = service();
    published.length = 0;
    await admin.setPassword({ session: operator }, member.userId, 'Temp@2026!x', undefined);
    const [row] = await db
      .select({ mustChange: users.mustChangePassword, revoked: sessions.revokedAt })
      .from(users)
      .innerJoin(sessions, eq(sessions.userId, users.id))
      .where(eq(sessions.id, member.id));
    expect(row).toMatchObject({ mustChange: true });
    expect(row!.revoked).not.toBeNull();
    expect(published).toEqual([{ kind: 'user', id: member.userId }]);
  });

  it('answers an unknown id for a user of another tenant', async () => {
    const admin = service();
    expect(await refusal(admin.unlock({ session: operator }, platformOperator.userId))).toEqual({
      code: ResultCode.NOT_FOUND,
      key: 'notFound',
    });
  });
});

describe('the tenants service', () => {
  const service = () =>
    createAdminTenantsService({
      repo: createAdminTenantsRepository(db),
      operatorOf,
      settings: { stored: async () => ({}), save: async () => true, fallbacks: async () => ({}) as never },
      passwords,
      bus,
      storeLogo: async () => '/logo',
    });

  it('creates tenants for platform operators only', async () => {
    const body = {
      code: 'east-park',
      name: '东区',
      operator: { username: 'east', name: '东区管理员', password: 'Park#2026!x' },
    };
    expect(await refusal(service().create({ session: operator }, body))).toEqual({
      code: ResultCode.NO_PERMISSION,
      key: 'platformOnly',
    });
    const id = await service().create({ session: platformOperator }, body);
    const [first] = await db
      .select({ mustChange: users.mustChangePassword })
      .from(users)
      .where(and(eq(users.tenantId, id), eq(users.username, 'east')));
    expect(first).toEqual({ mustChange: true });
    expect(await refusal(service().create({ session: platformOperator }, body))).toEqual({
      code: ResultCode.CONFLICT,
      key: 'tenantTaken',
    });
  });

  it('takes only an http(s) home address in the settings', async () => {
    expect(await refusal(service().saveSettings({ session: operator }, { domianURL: 'javascript:alert(1)' }))).toEqual({
      code: ResultCode.BAD_REQUEST,
      key: 'homeUrlInvalid',
    });
  });
});

describe('the access, menus and records services', () => {
  it('keeps system:manage enforced and the role one acts in as it is', async () => {
    const access = createAdminAccessService({ repo: createAdminAccessRepository(db), operatorOf, bus });
    expect(
      await refusal(
        access.createPermission({ session: operator }, { code: 'system:manage', describe: 'x', status: 0 }),
      ),
    ).toMatchObject({ code: ResultCode.BAD_REQUEST, key: 'operatorCodeFixed' });
    expect(await refusal(access.setRolePermissions({ session: operator }, operator.roleId!, []))).toEqual({
      code: ResultCode.BAD_REQUEST,
      key: 'operatorOwnRole',
    });
    const [held] = await db
      .select({ roleId: userRoles.roleId })
      .from(userRoles)
      .where(eq(userRoles.roleId, operator.roleId!));
    expect(held).toBeDefined();
  });

  it('refuses a menu link that is no address of the portal or the web, and a move under itself', async () => {
    // A refused change is announced to no one's portal.
    const told: unknown[] = [];
    const bus = { publish: async (e: unknown) => void told.push(e) };
    const service = createAdminMenusService({ repo: createAdminMenusRepository(db), operatorOf, bus });
    expect(
      await refusal(
        service.create({ session: operator }, { name: '坏链接', path: '/bad', url: 'javascript:alert(1)' } as never),
      ),
    ).toEqual({ code: ResultCode.BAD_REQUEST, key: 'entryInvalid' });
    const [parent] = await db
      .select({ id: menus.id, childId: sql<number>`(SELECT c.id FROM menus c WHERE c.parent_id = menus.id LIMIT 1)` })
      .from(menus)
      .where(and(eq(menus.tenantId, demo), sql`EXISTS (SELECT 1 FROM menus c WHERE c.parent_id = menus.id)`))
      .limit(1);
    expect(await refusal(service.move({ session: operator }, parent!.id, Number(parent!.childId), 0))).toEqual({
      code: ResultCode.BAD_REQUEST,
      key: 'menuCycle',
    });
    expect(told).toEqual([]);
    // A move that is done is: the tenant's portals load their menu again.
    await service.move({ session: operator }, parent!.childId, parent!.id, 0);
    expect(told).toEqual([{ kind: 'menus', tenant: demo }]);
  });

  it('wants a reason to refuse an enterprise, and real days in the audit filter', async () => {
    const records = createAdminRecordsService({
      repo: createAdminRecordsRepository(db),
      operatorOf,
      services: { valid: () => true, reachable: () => true, clashes: () => false },
    });
    expect(await refusal(records.review({ session: operator }, 1, 2, '  '))).toEqual({
      code: ResultCode.BAD_REQUEST,
      key: 'reviewReasonRequired',
    });
    expect(
      await refusal(records.audit({ session: operator }, { page: 1, limit: 20, from: '2026-02-30' }, 'zh')),
    ).toEqual({ code: ResultCode.BAD_REQUEST, key: 'timeInvalid' });
  });
});

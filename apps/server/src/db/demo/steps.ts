/**
 * The steps of the demo seed that both a first start and the top-ups of an existing demo run: each
 * adds what the demo tenant lacks and leaves what is there.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../client.js';
import { consoleMenu, type MenuSeed } from '../provisioning/menus.js';
import { PORTAL_SERVICE } from '../provisioning/tenant.js';
import * as s from '../schema.js';
import { newApiKey, randomAlnum, sha256Hex } from '../../platform/hash.js';
import { ensureSecret } from '../../platform/secrets.js';
import { sanitizeRichText } from '../../platform/html.js';
import { DEMO_AGREEMENT_EN } from './content/agreement.js';
import { DEMO_ALERTS, DEMO_DEVICES } from './content/devices.js';
import { DEMO_EN } from './content/english.js';
import { DEMO_CONTACTS, PARK_ENTERPRISES } from './content/enterprises.js';
import { DEMO_MENU } from './content/menu.js';
import { DEMO_FILES, DEMO_NOTICES_EN } from './content/notices.js';
import { DEMO_PAGES } from './content/pages.js';
import { DEMO_APPS, DEMO_REPAIRS, DEMO_ROOMS, OIDC_EXAMPLE } from './content/services.js';

/**
 * The OpenID Connect example system as a client of the demo tenant's provider, unless it is there
 * (by its client_id). Its secret is a server secret (256 random bits, made once); the row keeps
 * only its SHA-256, as for every client.
 */
export async function ensureOidcExample(tx: Tx, tenantId: number): Promise<number> {
  const secret = await ensureSecret(tx, OIDC_EXAMPLE.secretName, () => randomAlnum(43));
  const at = `${s.SERVER_PATTERN}${OIDC_EXAMPLE.path}`;
  const rows = await tx
    .insert(s.oidcClients)
    .values({
      tenantId,
      clientId: OIDC_EXAMPLE.clientId,
      name: OIDC_EXAMPLE.name,
      translations: { en: { name: OIDC_EXAMPLE.en } },
      confidential: true,
      secretHash: sha256Hex(secret),
      secretSetAt: new Date(),
      grantTypes: ['authorization_code'],
      redirectUris: [`${at}callback`],
      postLogoutRedirectUris: [at],
      backchannelLogoutUri: `${at}backchannel-logout`,
      scopes: OIDC_EXAMPLE.scopes,
      firstParty: true,
    })
    .onConflictDoNothing()
    .returning({ id: s.oidcClients.id });
  return rows.length;
}

/** The demo's menu tree with the operators' console: what a demo tenant's menu has. */
export const demoMenuTree = (): MenuSeed[] => [...DEMO_MENU, ...consoleMenu(false)];

/** Enterprises only the demo admin (a park operator) has joined; every estatus. */
export const parkEnterprises = (tenantId: number) =>
  PARK_ENTERPRISES.map((name, i) => ({
    tenantId,
    name,
    creditCode: `9131011${String(i).padStart(2, '0')}MA1G${String(7300 + i * 17)}X${'ABCDEFGHJK'[i]}`,
    industryCode: '65',
    regionCode: '310115',
    estatus: i % 3,
  }));

/**
 * Gives the demo's enterprises the contact and position a registration gives (in Chinese, and in
 * English beside the name's), where they have no contact yet. After translateDemo, which names only
 * rows without any English.
 */
export async function giveDemoContacts(tx: Tx, tenantId: number): Promise<number> {
  let given = 0;
  for (const [name, c] of Object.entries(DEMO_CONTACTS)) {
    const rows = await tx
      .update(s.enterprises)
      .set({
        contacts: c.contacts,
        position: c.position,
        translations: sql`jsonb_set(${s.enterprises.translations}, '{en}',
          coalesce(${s.enterprises.translations}->'en', '{}'::jsonb) || ${JSON.stringify(c.en)}::jsonb)`,
      })
      .where(and(eq(s.enterprises.tenantId, tenantId), eq(s.enterprises.name, name), isNull(s.enterprises.contacts)))
      .returning({ id: s.enterprises.id });
    given += rows.length;
  }
  return given;
}

/**
 * Gives the demo notices their attachments where they have none yet: each file written under a
 * generated name in `filesDir` and recorded as an upload of the notice's sender, the admin.
 */
export async function attachDemoFiles(tx: Tx, tenantId: number, filesDir: string): Promise<number> {
  const [admin] = await tx
    .select({ id: s.users.id })
    .from(s.users)
    .where(and(eq(s.users.tenantId, tenantId), eq(s.users.username, 'admin')));
  let added = 0;
  for (const [title, file] of Object.entries(DEMO_FILES)) {
    const [notice] = await tx
      .select({ id: s.notices.id })
      .from(s.notices)
      .where(
        and(eq(s.notices.tenantId, tenantId), eq(s.notices.title, title), sql`${s.notices.pushFiles} = '[]'::jsonb`),
      );
    if (!notice) continue;
    const id = randomUUID();
    const content = Buffer.from(file.text, 'utf8');
    await mkdir(filesDir, { recursive: true });
    await writeFile(join(filesDir, id), content);
    await tx.insert(s.files).values({
      id,
      tenantId,
      ownerId: admin?.id ?? null,
      purpose: 'notice',
      fileName: file.fileName,
      mediaType: 'text/plain',
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
    });
    await tx
      .update(s.notices)
      .set({ pushFiles: [{ addr: `files/${id}`, fileName: file.fileName }] })
      .where(eq(s.notices.id, notice.id));
    added++;
  }
  return added;
}

/** The demo's drag pages the tenant lacks, each with its version 1 published. */
export async function ensurePages(tx: Tx, tenantId: number): Promise<number> {
  const pages = await tx
    .insert(s.pageDefinitions)
    .values(DEMO_PAGES.map((p) => ({ tenantId, code: p.code, publishedVersion: 1 })))
    .onConflictDoNothing()
    .returning({ id: s.pageDefinitions.id, code: s.pageDefinitions.code });
  if (pages.length > 0) {
    await tx
      .insert(s.pageVersions)
      .values(
        pages.map((p) => ({ pageId: p.id, version: 1, document: DEMO_PAGES.find((d) => d.code === p.code)!.document })),
      );
  }
  return pages.length;
}

export async function ensureApps(tx: Tx, tenantId: number): Promise<number> {
  const added = await tx
    .insert(s.microApps)
    .values(DEMO_APPS.map(({ en, ...a }, sort) => ({ tenantId, ...a, sort, translations: { en: { name: en } } })))
    .onConflictDoNothing()
    .returning({ id: s.microApps.id });
  await tx
    .update(s.tenants)
    .set({ homeUrl: 'https://park.example.com/' })
    .where(and(eq(s.tenants.id, tenantId), isNull(s.tenants.homeUrl)));
  return added.length;
}

/**
 * The demo's devices and their alerts, when the tenant has none of them yet; with `devicesFile`,
 * a fresh credential for each public device goes there (the secrets exist nowhere else: only
 * their hashes are stored), for `npm run devices:simulate`.
 */
export async function ensureDevices(tx: Tx, tenantId: number, devicesFile?: string): Promise<number> {
  const added = await tx
    .insert(s.devices)
    .values(
      DEMO_DEVICES.map((d) => ({
        tenantId,
        code: d.code,
        name: d.name,
        type: d.type,
        location: d.location,
        isPublic: d.isPublic,
        latest: d.latest,
        lastSeenAt: sql`now() - make_interval(mins => ${d.silentMinutes ?? 0})`,
        translations: { en: { name: d.en, location: d.locationEn } },
      })),
    )
    .onConflictDoNothing()
    .returning({ id: s.devices.id, code: s.devices.code });
  if (added.length === 0) return 0;
  const idOf = new Map(added.map((d) => [d.code, d.id]));
  const alerts = DEMO_ALERTS.filter((a) => idOf.has(a.device));
  if (alerts.length > 0) {
    await tx.insert(s.deviceAlerts).values(
      alerts.map((a) => ({
        tenantId,
        deviceId: idOf.get(a.device)!,
        severity: a.severity,
        state: a.state,
        message: a.message,
        translations: { en: { message: a.en } },
        raisedAt: sql`now() - make_interval(mins => ${a.minutes})`,
        ...(a.state === 'open'
          ? {}
          : { acknowledgedAt: sql`now() - make_interval(mins => ${Math.floor(a.minutes / 2)})` }),
        ...(a.state === 'closed' ? { closedAt: sql`now() - make_interval(mins => ${Math.floor(a.minutes / 3)})` } : {}),
      })),
    );
  }
  if (devicesFile) {
    const tokens: { code: string; name: string; nameEn: string; token: string; latest: Record<string, number> }[] = [];
    for (const d of DEMO_DEVICES.filter((x) => x.isPublic && idOf.has(x.code))) {
      const made = newApiKey();
      await tx.insert(s.deviceCredentials).values({
        tenantId,
        deviceId: idOf.get(d.code)!,
        keyId: made.keyId,
        secretHash: made.secretHash,
      });
      tokens.push({ code: d.code, name: d.name, nameEn: d.en, token: made.token, latest: d.latest });
    }
    await mkdir(dirname(devicesFile), { recursive: true });
    // Only the owner may read it: it holds the demo devices' secrets.
    await writeFile(devicesFile, `${JSON.stringify({ tenant: 'demo', devices: tokens }, null, 2)}\n`, { mode: 0o600 });
  }
  return added.length;
}

/** 会议室预约's rooms and, the first time they arrive, 物业报修's first requests. */
export async function ensureParkServices(tx: Tx, tenantId: number): Promise<number> {
  const added = await tx
    .insert(s.parkRooms)
    .values(DEMO_ROOMS.map(({ en, ...r }) => ({ tenantId, ...r, translations: { en: { name: en } } })))
    .onConflictDoNothing()
    .returning({ id: s.parkRooms.id });
  // The first time the rooms arrive, the member's first repair requests do too.
  if (added.length === 0) return 0;
  const [member] = await tx
    .select({ id: s.users.id })
    .from(s.users)
    .where(and(eq(s.users.tenantId, tenantId), eq(s.users.username, 'member')));
  if (member) {
    await tx
      .insert(s.parkRepairs)
      .values(DEMO_REPAIRS.map(({ en, ...r }) => ({ tenantId, userId: member.id, ...r, translations: { en } })));
  }
  return added.length;
}

/** A table with names in other languages. */
type Translated = PgTable & { translations: AnyPgColumn };

/**
 * Gives the demo's rows their English names where they have none yet: on first start, and to a
 * demo seeded before names had translations. A translation someone set is left as it is.
 */
export async function translateDemo(tx: Tx, tenantId: number): Promise<number> {
  const menus: [string, object][] = [];
  const walk = (items: MenuSeed[]) =>
    items.forEach((m) => {
      menus.push([m.name, { title: m.en }]);
      if (m.children) walk(m.children);
    });
  walk(DEMO_MENU);
  const named = (names: Record<string, string>) => Object.entries(names).map(([k, name]) => [k, { name }] as const);
  // Each table with the column that scopes it to the tenant, the column its rows are found by, and
  // what each row's English is.
  const parts: [Translated, AnyPgColumn, AnyPgColumn, (readonly [string | number, object])[]][] = [
    [s.tenants, s.tenants.id, s.tenants.id, [[tenantId, { name: DEMO_EN.tenant }]]],
    [s.roles, s.roles.tenantId, s.roles.code, Object.entries(DEMO_EN.roles).map(([code, title]) => [code, { title }])],
    [s.applications, s.applications.tenantId, s.applications.code, named(DEMO_EN.applications)],
    [s.workbenches, s.workbenches.tenantId, s.workbenches.code, named(DEMO_EN.workbenches)],
    [s.users, s.users.tenantId, s.users.username, named(DEMO_EN.users)],
    [s.enterprises, s.enterprises.tenantId, s.enterprises.name, named(DEMO_EN.enterprises)],
    [s.menus, s.menus.tenantId, s.menus.name, menus],
    [s.notices, s.notices.tenantId, s.notices.title, Object.entries(DEMO_NOTICES_EN)],
    [
      s.ssoServices,
      s.ssoServices.tenantId,
      s.ssoServices.name,
      named({ ...DEMO_EN.services, [PORTAL_SERVICE.name]: PORTAL_SERVICE.en }),
    ],
    [s.parkRepairs, s.parkRepairs.tenantId, s.parkRepairs.title, DEMO_REPAIRS.map((r) => [r.title, r.en] as const)],
    [
      s.registerAgreements,
      s.registerAgreements.tenantId,
      s.registerAgreements.tenantId,
      [[tenantId, { html: sanitizeRichText(DEMO_AGREEMENT_EN) }]],
    ],
  ];
  let updated = 0;
  for (const [table, scope, key, entries] of parts) {
    for (const [value, en] of entries) {
      const rows = await tx
        .update(table)
        .set({ translations: { en } } as never)
        .where(and(eq(scope, tenantId), eq(key, value), sql`${table.translations} = '{}'::jsonb`))
        .returning({ key });
      updated += rows.length;
    }
  }
  return updated;
}

import type { AdminOidcClient } from '@portal/contracts';
import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { chinaTime, containing, englishOf, pageOf, totalRows } from '../../../db/expressions.js';
import { oidcClients, oidcPayloads, roles } from '../../../db/schema.js';

/** A client's settings as they are kept (the service has checked them). */
export interface OidcClientRow {
  name: string;
  nameEn: string;
  grantTypes: string[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  scopes: string[];
  firstParty: boolean;
  idTokenAlg: string;
  serviceAccount: boolean;
  serviceRoleId: number | null;
}

const columns = () => ({
  id: sql<string>`${oidcClients.id}::text`,
  clientId: oidcClients.clientId,
  name: oidcClients.name,
  nameEn: englishOf(oidcClients.translations, 'name'),
  confidential: oidcClients.confidential,
  grantTypes: oidcClients.grantTypes,
  redirectUris: oidcClients.redirectUris,
  postLogoutRedirectUris: oidcClients.postLogoutRedirectUris,
  backchannelLogoutUri: oidcClients.backchannelLogoutUri,
  scopes: oidcClients.scopes,
  firstParty: oidcClients.firstParty,
  idTokenAlg: oidcClients.idTokenAlg,
  serviceAccount: oidcClients.serviceAccount,
  serviceRoleId: sql<string | null>`${oidcClients.serviceRoleId}::text`,
  enabled: oidcClients.enabled,
  secretSetAt: chinaTime(oidcClients.secretSetAt),
  createdAt: chinaTime(oidcClients.createdAt),
  updatedAt: chinaTime(oidcClients.updatedAt),
});

const translationsOf = (nameEn: string) => (nameEn ? { en: { name: nameEn } } : {});

/**
 * A tenant's OpenID Connect clients (the provider reads the same rows). Every statement names the
 * tenant; the secret's hash is written here and never read back by the console's calls.
 */
export function createAdminOidcClientsRepository(db: Db) {
  const mine = (tenantId: number, id: number) => and(eq(oidcClients.id, id), eq(oidcClients.tenantId, tenantId));
  /** The provider's rows issued to a client (the provider sessions, which name many clients, stay). */
  const issuedTo = (tenantId: number, clientId: string) =>
    and(
      eq(oidcPayloads.tenantId, tenantId),
      sql`${oidcPayloads.model} <> 'Session'`,
      sql`${oidcPayloads.payload}->>'clientId' = ${clientId}`,
    );

  return {
    async list(tenantId: number, f: { page: number; limit: number; q?: string | undefined }) {
      const rows = await db
        .select({ ...columns(), total: totalRows() })
        .from(oidcClients)
        .where(
          and(
            eq(oidcClients.tenantId, tenantId),
            f.q
              ? or(
                  ilike(oidcClients.name, containing(f.q)),
                  ilike(englishOf(oidcClients.translations, 'name'), containing(f.q)),
                  ilike(oidcClients.clientId, containing(f.q)),
                )
              : undefined,
          ),
        )
        .orderBy(desc(oidcClients.id))
        .limit(f.limit)
        .offset((f.page - 1) * f.limit);
      return pageOf(rows) as { records: AdminOidcClient[]; total: number };
    },

    async get(tenantId: number, id: number): Promise<AdminOidcClient | null> {
      const [row] = await db.select(columns()).from(oidcClients).where(mine(tenantId, id));
      return (row as AdminOidcClient | undefined) ?? null;
    },

    async create(
      tenantId: number,
      c: OidcClientRow & { clientId: string; confidential: boolean; secretHash: string | null },
    ): Promise<number> {
      const { nameEn, ...rest } = c;
      const [row] = await db
        .insert(oidcClients)
        .values({
          tenantId,
          ...rest,
          translations: translationsOf(nameEn),
          secretSetAt: c.secretHash ? sql`now()` : null,
        })
        .returning({ id: oidcClients.id });
      return row!.id;
    },

    /**
     * Writes a client's settings; `revoke` also removes what the provider keeps for it (as a
     * disable does), in the same transaction: for a change that narrows what it may have.
     */
    async update(tenantId: number, id: number, c: OidcClientRow, revoke = false): Promise<boolean> {
      const { nameEn, ...rest } = c;
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(oidcClients)
          .set({ ...rest, translations: translationsOf(nameEn), updatedAt: sql`now()` })
          .where(mine(tenantId, id))
          .returning({ clientId: oidcClients.clientId });
        if (rows.length === 0) return false;
        if (revoke) await tx.delete(oidcPayloads).where(issuedTo(tenantId, rows[0]!.clientId));
        return true;
      });
    },

    /**
     * Enables or disables a client. Disabling also removes what the provider keeps for it (its
     * users' grants, codes, access and refresh tokens, device codes), in the same transaction:
     * they are refused while it is disabled, and enabling it again revives none of them.
     */
    async setEnabled(tenantId: number, id: number, enabled: boolean): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(oidcClients)
          .set({ enabled, updatedAt: sql`now()` })
          .where(mine(tenantId, id))
          .returning({ clientId: oidcClients.clientId });
        if (rows.length === 0) return false;
        if (!enabled) await tx.delete(oidcPayloads).where(issuedTo(tenantId, rows[0]!.clientId));
        return true;
      });
    },

    /** Whether a role is one of the tenant's (what a service account may act in). */
    async roleOfTenant(tenantId: number, roleId: number): Promise<boolean> {
      const rows = await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.id, roleId), eq(roles.tenantId, tenantId)));
      return rows.length > 0;
    },

    /**
     * Replaces a confidential client's secret hash: the one before stops matching with this
     * statement, and the access tokens it obtained with client_credentials end with it (ADR 056).
     */
    async setSecret(tenantId: number, id: number, secretHash: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(oidcClients)
          .set({ secretHash, secretSetAt: sql`now()`, updatedAt: sql`now()` })
          .where(and(mine(tenantId, id), eq(oidcClients.confidential, true)))
          .returning({ clientId: oidcClients.clientId });
        if (rows.length === 0) return false;
        await tx
          .delete(oidcPayloads)
          .where(and(issuedTo(tenantId, rows[0]!.clientId), eq(oidcPayloads.model, 'ClientCredentials')));
        return true;
      });
    },

    /** Deletes a client and, as a disable does, what the provider keeps for it. */
    async delete(tenantId: number, id: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .delete(oidcClients)
          .where(mine(tenantId, id))
          .returning({ clientId: oidcClients.clientId });
        if (rows.length === 0) return false;
        await tx.delete(oidcPayloads).where(issuedTo(tenantId, rows[0]!.clientId));
        return true;
      });
    },
  };
}

export type AdminOidcClientsRepository = ReturnType<typeof createAdminOidcClientsRepository>;

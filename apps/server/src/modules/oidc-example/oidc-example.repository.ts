import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { oidcClients, oidcExampleSessions as t } from '../../db/schema.js';

/** A sign-in under way: what the answer of the provider is checked against. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcExampleSession {
  sid: string | null;
  idToken: string;
  claims: Record<string, unknown>;
  createdAt: Date;
}

const live = (idHash: string) => and(eq(t.idHash, idHash), isNull(t.endedAt), gt(t.expiresAt, new Date()));

export function createOidcExampleRepository(db: Db) {
  return {
    async begin(idHash: string, p: PendingSignIn, ttlSeconds: number): Promise<void> {
      await db.insert(t).values({ idHash, ...p, expiresAt: new Date(Date.now() + ttlSeconds * 1000) });
    },

    /** The sign-in under way a cookie names, spent: a second answer finds nothing. */
    async takePending(idHash: string): Promise<PendingSignIn | null> {
      const [row] = await db
        .delete(t)
        .where(and(live(idHash), isNotNull(t.codeVerifier)))
        .returning({ state: t.state, nonce: t.nonce, codeVerifier: t.codeVerifier });
      return row ? { state: row.state!, nonce: row.nonce!, codeVerifier: row.codeVerifier! } : null;
    },

    async open(s: {
      idHash: string;
      sid: string | null;
      idToken: string;
      claims: Record<string, unknown>;
      ttlSeconds: number;
    }): Promise<void> {
      await db.insert(t).values({
        idHash: s.idHash,
        sid: s.sid,
        idToken: s.idToken,
        claims: s.claims,
        expiresAt: new Date(Date.now() + s.ttlSeconds * 1000),
      });
    },

    /** The signed-in session a cookie names. */
    async find(idHash: string): Promise<OidcExampleSession | null> {
      const [row] = await db
        .select({ sid: t.sid, idToken: t.idToken, claims: t.claims, createdAt: t.createdAt })
        .from(t)
        .where(and(live(idHash), isNotNull(t.idToken)));
      return row ? { sid: row.sid, idToken: row.idToken!, claims: row.claims ?? {}, createdAt: row.createdAt } : null;
    },

    /** Ends the session a cookie names; its ID token (the hint of RP-initiated logout), if it was live. */
    async end(idHash: string): Promise<string | null> {
      const [row] = await db
        .update(t)
        .set({ endedAt: new Date() })
        .where(and(live(idHash), isNotNull(t.idToken)))
        .returning({ idToken: t.idToken });
      return row?.idToken ?? null;
    },

    /** Back-channel logout: the sessions of the provider's session `sid` end. */
    async endBySid(sid: string): Promise<number> {
      const ended = await db
        .update(t)
        .set({ endedAt: new Date() })
        .where(and(eq(t.sid, sid), isNull(t.endedAt)))
        .returning({ idHash: t.idHash });
      return ended.length;
    },

    /**
     * Points the demo's client at this server: its addresses written under `{SERVER}` read as
     * `server`, and the hash of the secret this system holds. Nothing when they are so already.
     */
    async pointClient(c: {
      clientId: string;
      redirectUri: string;
      postLogoutRedirectUri: string;
      backchannelLogoutUri: string;
      secretHash: string;
    }): Promise<number> {
      const rows = await db
        .update(oidcClients)
        .set({
          redirectUris: [c.redirectUri],
          postLogoutRedirectUris: [c.postLogoutRedirectUri],
          backchannelLogoutUri: c.backchannelLogoutUri,
          secretHash: c.secretHash,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(oidcClients.clientId, c.clientId),
            sql`(${oidcClients.redirectUris}, ${oidcClients.postLogoutRedirectUris}, ${oidcClients.backchannelLogoutUri}, ${oidcClients.secretHash})
              IS DISTINCT FROM (ARRAY[${c.redirectUri}]::text[], ARRAY[${c.postLogoutRedirectUri}]::text[], ${c.backchannelLogoutUri}, ${c.secretHash})`,
          ),
        )
        .returning({ id: oidcClients.id });
      return rows.length;
    },
  };
}

export type OidcExampleRepository = ReturnType<typeof createOidcExampleRepository>;

import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { exampleSystemSessions as t } from '../../db/schema.js';

export interface ExampleSession {
  tenantCode: string;
  username: string;
  name: string;
  createdAt: Date;
}

export function createExampleSystemRepository(db: Db) {
  return {
    async open(s: {
      idHash: string;
      ticket: string;
      tenantCode: string;
      username: string;
      name: string;
      ttlSeconds: number;
    }) {
      await db.insert(t).values({
        idHash: s.idHash,
        ticket: s.ticket,
        tenantCode: s.tenantCode,
        username: s.username,
        name: s.name,
        expiresAt: new Date(Date.now() + s.ttlSeconds * 1000),
      });
    },

    /** The live session a cookie names. */
    async find(idHash: string): Promise<ExampleSession | null> {
      const [row] = await db
        .select({ tenantCode: t.tenantCode, username: t.username, name: t.name, createdAt: t.createdAt })
        .from(t)
        .where(and(eq(t.idHash, idHash), isNull(t.endedAt), gt(t.expiresAt, new Date())));
      return row ?? null;
    },

    async end(idHash: string): Promise<void> {
      await db
        .update(t)
        .set({ endedAt: new Date() })
        .where(and(eq(t.idHash, idHash), isNull(t.endedAt)));
    },

    /** Single logout: the sessions begun with this ticket end. */
    async endByTicket(ticket: string): Promise<number> {
      const ended = await db
        .update(t)
        .set({ endedAt: new Date() })
        .where(and(eq(t.ticket, ticket), isNull(t.endedAt)))
        .returning({ idHash: t.idHash });
      return ended.length;
    },
  };
}

export type ExampleSystemRepository = ReturnType<typeof createExampleSystemRepository>;

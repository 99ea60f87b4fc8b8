/**
 * What every removal of a second factor does after it (ADR 051), whichever kind it was (an
 * authenticator app in modules/factors, a passkey in modules/passkeys): when the person has no
 * confirmed factor left, their recovery codes and remembered browsers go too — they stood for the
 * factors — so a factor added later starts afresh and no browser remembered before skips it.
 */
import { and, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from './client.js';
import { recoveryCodes, rememberedBrowsers, userFactors } from './schema.js';

/** Inside the removal's transaction; whether that was the person's last factor. */
export async function afterFactorRemoved(tx: Db | Tx, userId: number): Promise<boolean> {
  const [left] = await tx
    .select({ n: count() })
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), isNotNull(userFactors.confirmedAt)));
  if ((left?.n ?? 0) > 0) return false;
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx
    .update(rememberedBrowsers)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(rememberedBrowsers.userId, userId), isNull(rememberedBrowsers.revokedAt)));
  return true;
}

/**
 * Each tenant's sign-in policy (contracts SecurityPolicy, docs/product/security-policy.md): the one
 * place the login, the sign-on server, the OpenID Provider's sign-in, step-up, password setting and
 * housekeeping read it from. Kept for a minute per instance; a change is announced to every
 * instance (a `tenant` event), so every instance follows it at once.
 */
import { isTenantCode, securityPolicyOf, type SecurityPolicy } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tenants } from '../db/schema.js';
import type { InvalidationBus } from './invalidation.js';
import { createLocalCache } from './local-cache.js';

export interface SecurityPolicies {
  /** The tenant's policy, its unset keys the product's defaults (an unknown tenant: the defaults). */
  of(tenantId: number): Promise<SecurityPolicy>;
  /** The same by the tenant's code (the page's runtime configuration names its tenant so). */
  ofCode(code: string): Promise<SecurityPolicy>;
  /** Replaces the tenant's policy inside the caller's transaction; announce with `changed` after commit. */
  save(tx: Pick<Db, 'update'>, tenantId: number, policy: SecurityPolicy): Promise<boolean>;
  /** Tells every instance the tenant's policy changed. */
  changed(tenantId: number): Promise<void>;
}

export function createSecurityPolicies(db: Db, bus: Pick<InvalidationBus, 'publish' | 'subscribe'>): SecurityPolicies {
  const cache = createLocalCache<SecurityPolicy>({ ttlMs: 60_000, max: 1_000 });
  const byCode = createLocalCache<SecurityPolicy>({ ttlMs: 60_000, max: 1_000 });
  bus.subscribe((e) => {
    if (e.kind === 'all') cache.clear();
    else if (e.kind === 'tenant') cache.delete(String(e.tenant));
    // Codes are not ids: any tenant's change forgets them all (a few entries, read again in a minute anyway).
    if (e.kind === 'all' || e.kind === 'tenant') byCode.clear();
  });
  return {
    async of(tenantId) {
      const key = String(tenantId);
      const hit = cache.get(key);
      if (hit) return hit;
      const version = cache.version;
      const [row] = await db.select({ policy: tenants.securityPolicy }).from(tenants).where(eq(tenants.id, tenantId));
      const policy = securityPolicyOf(row?.policy);
      if (row) cache.set(key, policy, { version });
      return policy;
    },
    async ofCode(code) {
      // A code no tenant can have (from an address or a cookie) is an unknown tenant's, unread.
      if (!isTenantCode(code)) return securityPolicyOf(null);
      const hit = byCode.get(code);
      if (hit) return hit;
      const version = byCode.version;
      const [row] = await db.select({ policy: tenants.securityPolicy }).from(tenants).where(eq(tenants.code, code));
      const policy = securityPolicyOf(row?.policy);
      if (row) byCode.set(code, policy, { version });
      return policy;
    },
    async save(tx, tenantId, policy) {
      const done = await tx
        .update(tenants)
        .set({ securityPolicy: policy })
        .where(eq(tenants.id, tenantId))
        .returning({ id: tenants.id });
      return done.length > 0;
    },
    async changed(tenantId) {
      cache.delete(String(tenantId));
      byCode.clear();
      await bus.publish({ kind: 'tenant', tenant: tenantId });
    },
  };
}

/**
 * Whether the tenant's policy requires a second factor of a person (`operators`: of those holding
 * the operator permission; `everyone`; never under `off` or `optional`). The sign-in's factor step
 * and the console's user list both ask this.
 */
export function factorRequired(policy: SecurityPolicy, isOperator: boolean): boolean {
  return policy.factorRequirement === 'everyone' || (policy.factorRequirement === 'operators' && isOperator);
}

/**
 * Where a person required to have a factor, who has none, stands with the enrolment grace
 * (`enrolGraceDays` from `users.factor_due_since`, set at their first such sign-in; not set yet:
 * the grace starts at their next sign-in). `over`: the sign-in can no longer go on without
 * enrolling during its factor step. The one rule of the sign-in and the console.
 */
export function enrolGrace(
  policy: SecurityPolicy,
  dueSince: Date | null,
  now = Date.now(),
): { daysLeft: number; over: boolean } {
  const elapsed = dueSince ? now - dueSince.getTime() : 0;
  const graceMs = policy.enrolGraceDays * 86_400_000;
  return { daysLeft: Math.max(0, Math.ceil((graceMs - elapsed) / 86_400_000)), over: elapsed >= graceMs };
}

import type { SecurityPolicy } from '@portal/contracts';
import type { Db } from '../../../db/client.js';
import type { SecurityPolicies } from '../../../platform/security-policy.js';

/** The tenant's policy through the platform's store (the one reader and writer of `tenants.security_policy`). */
export function createSecurityPolicyRepository(db: Db, policies: SecurityPolicies) {
  return {
    of: (tenantId: number) => policies.of(tenantId),
    /** Replaces it in the request's transaction; every instance forgets the old one after the commit. */
    async save(tenantId: number, policy: SecurityPolicy): Promise<boolean> {
      if (!(await policies.save(db, tenantId, policy))) return false;
      await policies.changed(tenantId);
      return true;
    },
  };
}

export type SecurityPolicyRepository = ReturnType<typeof createSecurityPolicyRepository>;

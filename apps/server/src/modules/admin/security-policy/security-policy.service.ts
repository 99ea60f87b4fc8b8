/**
 * The tenant's security policy (ADR 053, docs/product/security-policy.md): its operators read and
 * replace it; a platform operator acts on the tenant they chose (`?tenant=`), as on every console
 * page. The schema holds each key to its range; the rules between keys are here.
 */
import { DEFAULT_SECURITY_POLICY, ResultCode, type SecurityPolicy, type SecurityPolicyView } from '@portal/contracts';
import { AppError, errors } from '../../../platform/errors.js';
import type { Caller, OperatorGate } from '../operators.service.js';
import type { SecurityPolicyRepository } from './security-policy.repository.js';

export interface SecurityPolicyServiceDeps {
  repo: SecurityPolicyRepository;
  operatorOf: OperatorGate;
}

/** The rules between keys: a factor someone could hold, whenever factors are asked for. */
export function policyProblem(p: SecurityPolicy): 'policyNoFactor' | null {
  const real = p.allowedFactors.filter((f) => f !== 'recovery');
  if (p.factorRequirement !== 'off' && real.length === 0) return 'policyNoFactor';
  return null;
}

export function createSecurityPolicyService({ repo, operatorOf }: SecurityPolicyServiceDeps) {
  return {
    async get(caller: Caller): Promise<SecurityPolicyView> {
      const { tenantId } = await operatorOf(caller);
      return { policy: await repo.of(tenantId), defaults: DEFAULT_SECURITY_POLICY };
    },

    async save(caller: Caller, policy: SecurityPolicy): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      const problem = policyProblem(policy);
      if (problem) throw new AppError(ResultCode.BAD_REQUEST, problem);
      // Stored in the schema's order, factors without repeats (the schema already refuses them).
      if (!(await repo.save(tenantId, { ...policy, allowedFactors: [...new Set(policy.allowedFactors)] })))
        throw errors.notFound();
    },
  };
}

export type SecurityPolicyService = ReturnType<typeof createSecurityPolicyService>;

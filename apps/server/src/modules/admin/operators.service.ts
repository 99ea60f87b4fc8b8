/**
 * Who may use the operators' console (ADR 031, 038), asked first by every admin service, as every
 * other service asks the permission guard: a session whose current role holds `system:manage`
 * (through the guard, as every other code). It acts on its own tenant, or — a platform operator,
 * whose tenant is the platform tenant — on the tenant the call names (`?tenant=<code>`). Naming
 * another tenant without being a platform operator is 40303, whether it exists or not.
 */
import { OPERATOR_PERMISSION, ResultCode, cleanTenantCode } from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import type { PermissionGuard } from '../../platform/permissions.js';
import type { ActiveSession } from '../../platform/session.js';
import type { OperatorsRepository } from './operators.repository.js';

/** Who calls the console: what every admin service takes first. */
export interface Caller {
  session: ActiveSession;
  /** The tenant code the call names (`?tenant=`); none, empty or the caller's own: their own tenant. */
  tenant?: string | null | undefined;
  /**
   * Told the tenant acted on when it is another than the caller's own: the audit row is that
   * tenant's (the routes hand the request's `operatorTenant`).
   */
  actsOn?: ((tenantId: number) => void) | undefined;
  /** A sensitive action (caller.ts STEP_UP_ROUTES): a factor must have been proven lately. */
  sensitive?: boolean | undefined;
}

export interface Operator {
  session: ActiveSession;
  /** The tenant acted on. */
  tenantId: number;
  /** Whether the operator administers every tenant. */
  platform: boolean;
}

/** The operator a call is made by, or 40303 (404 for a named tenant a platform operator does not have). */
export type OperatorGate = (caller: Caller) => Promise<Operator>;

export function createOperatorGate(deps: {
  repo: OperatorsRepository;
  guard: Pick<PermissionGuard, 'require'>;
  /** Whether the session proved a factor within the tenant's step-up minutes (modules/factors, ADR 051). */
  stepUpFresh?: ((session: ActiveSession) => Promise<boolean>) | undefined;
}) {
  const { repo, guard } = deps;
  const gate: OperatorGate = async ({ session, tenant, actsOn, sensitive }) => {
    await guard.require(session, OPERATOR_PERMISSION);
    // After the permission: only an operator learns that a step-up is needed. A service account's
    // token is minutes old and proves its secret, all it has (ADR 056); what stays with people it
    // never reaches (platform/service-accounts.ts).
    if (sensitive && !session.serviceAccount && deps.stepUpFresh && !(await deps.stepUpFresh(session))) {
      throw new AppError(ResultCode.STEP_UP_REQUIRED, 'stepUpRequired');
    }
    const own = await repo.ownTenant(session.tenantId);
    if (!own) throw new AppError(ResultCode.NO_PERMISSION, 'noPermission');
    // The one rule for a code a request names (ADR 016): trimmed; empty, null or undefined name none.
    const code = typeof tenant === 'string' ? cleanTenantCode(tenant) : null;
    if (!code || code === own.code) return { session, tenantId: session.tenantId, platform: own.platform };
    if (!own.platform) throw new AppError(ResultCode.NO_PERMISSION, 'operatorOwnTenant');
    const target = await repo.tenantIdOf(code);
    if (target === null) throw new AppError(ResultCode.NOT_FOUND, 'tenantUnknown');
    actsOn?.(target);
    return { session, tenantId: target, platform: true };
  };
  return gate;
}

/** As the gate, for what only a platform operator does (tenants themselves): 40303 to anyone else. */
export function platformOnly(gate: OperatorGate): OperatorGate {
  return async (caller) => {
    const operator = await gate(caller);
    if (!operator.platform) throw new AppError(ResultCode.NO_PERMISSION, 'platformOnly');
    return operator;
  };
}

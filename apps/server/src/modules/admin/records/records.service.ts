/** The review queue of enterprises, sign-on services, the SMS outbox and the audit log (ADR 031). */
import {
  AUDIT_EXPORT_MAX,
  ResultCode,
  type AdminEnterpriseDetail,
  type AdminSsoService,
  type AuditExport,
  type SsoServiceInput,
  type SsoServicePatch,
} from '@portal/contracts';
import { violatedConstraint } from '../../../db/violation.js';
import { AppError, errors } from '../../../platform/errors.js';
import { rowId, type RequestedId } from '../../../platform/ids.js';
import { realTime } from '../../../platform/times.js';
import type { Lang } from '../../../platform/i18n.js';
import type { Caller, OperatorGate } from '../operators.service.js';
import { auditCsv } from './audit-csv.js';
import type { AdminRecordsRepository, AuditFilter, Clashes } from './records.repository.js';

/** The sign-on server's rules for addresses (modules/sso/service-registry.ts), given by app.ts. */
export interface ServiceRules {
  /** Whether an address is a plain absolute http(s) URL the registry can match. */
  valid(address: string): boolean;
  /**
   * Whether the server may send requests there (platform/outbound.ts, ADR 034): false for an IP
   * literal or a name for this machine that the installation's address rule refuses. Other names
   * are judged whenever a request is sent, on what they then resolve to.
   */
  reachable(address: string): boolean;
  clashes: Clashes;
}

/** The catalog's names of a registered industry and region in the reader's language (app.ts). */
export interface CatalogNames {
  industryNames(code: string, lang: Lang): Promise<string[] | null>;
  regionNames(code: string, lang: Lang): string[] | null;
}

export interface AdminRecordsServiceDeps {
  repo: AdminRecordsRepository;
  operatorOf: OperatorGate;
  services: ServiceRules;
  catalog: CatalogNames;
  /** Tells an enterprise's members its review's outcome (the notices module's). */
  reviewDecided: (tenantId: number, enterpriseId: number, estatus: 1 | 2, reason: string | null) => Promise<void>;
}

interface Page {
  page: number;
  limit: number;
}

/**
 * A service's pattern, entry and logout addresses: absolute http(s) URLs as the registry reads them
 * (a pattern ending in `/` covers everything below it). The portal's placeholders are the seed's,
 * not an operator's to give. The server sends single-logout requests to the logout address, else to
 * addresses under the pattern: an address it may not send to is refused here, not only when called.
 */
function checkAddresses(
  rules: ServiceRules,
  s: { pattern?: string | undefined; entryUrl?: string | null | undefined; logoutUrl?: string | null | undefined },
) {
  const given = [s.pattern, s.entryUrl, s.logoutUrl].filter((v): v is string => !!v);
  if (given.some((v) => !rules.valid(v))) throw new AppError(ResultCode.BAD_REQUEST, 'serviceAddressInvalid');
  if (given.some((v) => !rules.reachable(v))) throw new AppError(ResultCode.CONFLICT, 'serviceAddressRefused');
}
const clashRefused = () => new AppError(ResultCode.CONFLICT, 'servicePatternTaken');
const sysCodeTaken = (err: unknown): never => {
  if (violatedConstraint(err) === 'sso_services_tenant_sys_code') throw new AppError(ResultCode.CONFLICT, 'codeTaken');
  throw err;
};

export function createAdminRecordsService(deps: AdminRecordsServiceDeps) {
  const { repo, operatorOf, services, catalog, reviewDecided } = deps;

  return {
    async enterprises(caller: Caller, f: Page & { q?: string | undefined; estatus?: number | undefined }) {
      const { tenantId } = await operatorOf(caller);
      return repo.enterprises(tenantId, f);
    },

    /**
     * One application as registered, names in `lang`; another tenant's or an unknown one is not
     * found. A code the catalog no longer holds keeps its code with no names.
     */
    async enterprise(caller: Caller, id: RequestedId, lang: Lang): Promise<AdminEnterpriseDetail> {
      const { tenantId } = await operatorOf(caller);
      const row = await repo.enterprise(tenantId, rowId(id));
      if (!row) throw errors.notFound();
      const { industryCode, regionCode, ...rest } = row;
      return {
        ...rest,
        industry: industryCode
          ? { code: industryCode, names: (await catalog.industryNames(industryCode, lang)) ?? [] }
          : null,
        region: regionCode ? { code: regionCode, names: catalog.regionNames(regionCode, lang) ?? [] } : null,
      };
    },

    /** Passes (1) or refuses (2) an enterprise; a refusal tells its members why. */
    async review(caller: Caller, id: RequestedId, estatus: 1 | 2, reason: string | undefined): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      const why = reason?.trim() || null;
      // Members are told why their enterprise did not pass: a refusal without a reason tells them nothing.
      if (estatus === 2 && !why) throw new AppError(ResultCode.BAD_REQUEST, 'reviewReasonRequired');
      const enterpriseId = rowId(id);
      if (!(await repo.review(tenantId, enterpriseId, estatus, estatus === 2 ? why : null))) throw errors.notFound();
      await reviewDecided(tenantId, enterpriseId, estatus, why);
    },

    async ssoServices(caller: Caller): Promise<AdminSsoService[]> {
      return repo.ssoServices((await operatorOf(caller)).tenantId);
    },

    /** Registers a sign-on service whose addresses overlap no other tenant's; its id. */
    async createSsoService(caller: Caller, s: SsoServiceInput): Promise<number> {
      const { tenantId } = await operatorOf(caller);
      checkAddresses(services, s);
      const id = await repo.createSsoService(tenantId, s, services.clashes).catch(sysCodeTaken);
      if (id === 'clash') throw clashRefused();
      return id;
    },

    async updateSsoService(caller: Caller, id: RequestedId, s: SsoServicePatch): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      checkAddresses(services, s);
      const done = await repo.updateSsoService(tenantId, rowId(id), s, services.clashes).catch(sysCodeTaken);
      if (done === 'clash') throw clashRefused();
      if (!done) throw errors.notFound();
    },

    async deleteSsoService(caller: Caller, id: RequestedId): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      if (!(await repo.deleteSsoService(tenantId, rowId(id)))) throw errors.notFound();
    },

    async outbox(caller: Caller, f: Page & { q?: string | undefined }) {
      const { tenantId } = await operatorOf(caller);
      return repo.outbox(tenantId, f);
    },

    async audit(caller: Caller, f: Page & AuditFilter, lang: Lang) {
      const { tenantId } = await operatorOf(caller);
      return repo.audit(tenantId, { ...f, from: realTime(f.from), to: realTime(f.to), lang });
    },

    /**
     * The entries the filter matches as CSV in `lang`: the newest AUDIT_EXPORT_MAX of them (the
     * answer says when more matched). The route is an audited read: who took a copy is recorded.
     */
    async auditExport(caller: Caller, f: AuditFilter, lang: Lang): Promise<AuditExport> {
      const { tenantId } = await operatorOf(caller);
      const filter = { ...f, from: realTime(f.from), to: realTime(f.to), lang };
      const { records, truncated } = await repo.auditExport(tenantId, filter, AUDIT_EXPORT_MAX);
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
      return { fileName: `audit-${stamp}.csv`, csv: auditCsv(records, lang), rows: records.length, truncated };
    },
  };
}

export type AdminRecordsService = ReturnType<typeof createAdminRecordsService>;

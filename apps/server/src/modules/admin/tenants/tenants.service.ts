/**
 * Tenants (platform operators only), and each tenant's own settings, logo and registration
 * agreement (its operators; ADR 031).
 */
import {
  ResultCode,
  type AgreementEdit,
  type TenantCreate,
  type TenantPatch,
  type TenantSettings,
  type TenantSettingsView,
} from '@portal/contracts';
import { violatedConstraint } from '../../../db/violation.js';
import { AppError, errors } from '../../../platform/errors.js';
import { rowId, type RequestedId } from '../../../platform/ids.js';
import { sanitizeRichText } from '../../../platform/html.js';
import type { InvalidationBus } from '../../../platform/invalidation.js';
import { acceptPersonName, acceptUsername } from '../../../platform/names.js';
import type { Passwords } from '../../../platform/passwords.js';
import type { TenantSettingsStore } from '../../../platform/tenant-settings.js';
import { platformOnly, type Caller, type OperatorGate } from '../operators.service.js';
import type { AdminTenantsRepository } from './tenants.repository.js';

/** An uploaded file as the files module keeps it. */
export interface LogoUpload {
  file: NodeJS.ReadableStream & { truncated?: boolean };
  filename: string;
}

/** The file part of a logo upload: its field's name and the file; null when the request has none. */
export type LogoPart = LogoUpload & { fieldname: string };

export interface AdminTenantsServiceDeps {
  repo: AdminTenantsRepository;
  operatorOf: OperatorGate;
  settings: Pick<TenantSettingsStore, 'stored' | 'save' | 'fallbacks'>;
  /** A new password's rule and hash (ADR 038). */
  passwords: Pick<Passwords, 'accept'>;
  bus: Pick<InvalidationBus, 'publish'>;
  /** Keeps an uploaded logo (the files module); its stored address. */
  storeLogo: (owner: { tenantId: number; userId: number }, upload: LogoUpload) => Promise<string>;
}

const protocolOf = (address: string) => {
  try {
    return new URL(address).protocol;
  } catch {
    return '';
  }
};

export function createAdminTenantsService(deps: AdminTenantsServiceDeps) {
  const { repo, operatorOf } = deps;
  const platformOperator = platformOnly(operatorOf);

  return {
    async list(caller: Caller, f: { q?: string | undefined; page: number; limit: number }) {
      await platformOperator(caller);
      return repo.list(f);
    },

    /** A new tenant with its skeleton and first operator (temporary password unless told otherwise); its id. */
    async create(caller: Caller, body: TenantCreate): Promise<number> {
      await platformOperator(caller);
      const { operator, ...t } = body;
      const username = acceptUsername(operator.username);
      const operatorName = acceptPersonName(operator.name);
      // A tenant still being made follows the product's default rules.
      const password = await deps.passwords.accept(operator.password, { tenantId: null, username });
      return repo
        .create(
          { code: t.code, name: t.name.trim(), nameEn: t.nameEn?.trim(), homeUrl: t.homeUrl?.trim() || null },
          {
            username,
            name: operatorName,
            passwordHash: await password.hash(),
            // The platform operator knows it: the tenant's operator sets their own at the first sign-in.
            mustChangePassword: operator.temporary !== false,
          },
        )
        .catch((err: unknown) => {
          if (violatedConstraint(err) === 'tenants_code_unique') throw new AppError(ResultCode.CONFLICT, 'tenantTaken');
          throw err;
        });
    },

    /** Edits a tenant; disabling one ends its users' sessions and tells every instance to forget everything. */
    async update(caller: Caller, requested: RequestedId, p: TenantPatch): Promise<void> {
      await platformOperator(caller);
      const id = rowId(requested);
      if (!(await repo.update(id, p))) throw errors.notFound();
      await deps.bus.publish(p.disabled ? { kind: 'all' } : { kind: 'tenant', tenant: id });
    },

    async settings(caller: Caller): Promise<TenantSettingsView> {
      const { tenantId } = await operatorOf(caller);
      // What an unset switch follows: the installation's, and the park's own name for its site name.
      const [settings, defaults] = await Promise.all([
        deps.settings.stored(tenantId),
        deps.settings.fallbacks(tenantId),
      ]);
      return { settings, defaults };
    },

    async saveSettings(caller: Caller, settings: TenantSettings): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      // Every text has its length and characters by the settings schema (the logo one of the
      // tenant's uploads, ADR 036); the park's home address must also be one a browser can open.
      const { domianURL } = settings;
      if (domianURL && !/^https?:$/.test(protocolOf(domianURL)))
        throw new AppError(ResultCode.BAD_REQUEST, 'homeUrlInvalid');
      if (!(await deps.settings.save(tenantId, settings))) throw errors.notFound();
    },

    /** Keeps a logo (PNG or JPEG, in the field `file`) read by `part` once the caller may; its address. */
    async uploadLogo(caller: Caller, part: () => Promise<LogoPart | null>): Promise<string> {
      const { tenantId, session } = await operatorOf(caller);
      const upload = await part();
      if (!upload || upload.fieldname !== 'file') throw new AppError(ResultCode.BAD_REQUEST, 'fileMissing');
      if (!/\.(png|jpe?g)$/i.test(upload.filename)) throw new AppError(ResultCode.BAD_REQUEST, 'logoInvalid');
      return deps.storeLogo({ tenantId, userId: session.userId }, upload).catch((err: unknown) => {
        // The files module names its own limit; a logo's is smaller.
        if (err instanceof AppError && err.key === 'fileTooLarge')
          throw new AppError(ResultCode.PAYLOAD_TOO_LARGE, 'logoTooLarge');
        throw err;
      });
    },

    async agreement(caller: Caller): Promise<AgreementEdit> {
      const { tenantId } = await operatorOf(caller);
      return repo.agreement(tenantId);
    },

    async saveAgreement(caller: Caller, a: AgreementEdit): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      await repo.saveAgreement(tenantId, sanitizeRichText(a.html), sanitizeRichText(a.htmlEn ?? ''));
    },
  };
}

export type AdminTenantsService = ReturnType<typeof createAdminTenantsService>;

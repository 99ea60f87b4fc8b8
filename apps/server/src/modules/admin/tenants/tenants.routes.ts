import multipart from '@fastify/multipart';
import {
  AdminIdParams,
  AdminPageQuery,
  AdminTenant,
  AdminTenantQuery,
  AgreementEdit,
  Envelope,
  LogoUploaded,
  Paged,
  ResultCode,
  TENANT_SWITCHES,
  TenantCreate,
  TenantPatch,
  TenantSettings,
  TenantSettingsView,
  checkPassword,
  type RuntimeConfig,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { violatedConstraint } from '../../../db/violation.js';
import { AppError, errors } from '../../../platform/errors.js';
import { sanitizeRichText } from '../../../platform/html.js';
import { rowId } from '../../../platform/ids.js';
import type { InvalidationBus } from '../../../platform/invalidation.js';
import { acceptPersonName, acceptUsername } from '../../../platform/names.js';
import type { OperatorGate } from '../../../platform/operators.js';
import type { PasswordDecryptor } from '../../../platform/password-transport.js';
import { ok } from '../../../platform/reply.js';
import type { TenantSettingsStore } from '../../../platform/tenant-settings.js';
import type { AdminTenantsRepository } from './tenants.repository.js';

export interface AdminTenantsDeps {
  repo: AdminTenantsRepository;
  operatorOf: OperatorGate;
  settings: TenantSettingsStore;
  /** The installation's switches: what a tenant's absent setting falls back to. */
  runtime: RuntimeConfig;
  decryptor: PasswordDecryptor;
  hashPassword: (password: string) => Promise<string>;
  bus: Pick<InvalidationBus, 'publish'>;
  /** Keeps an uploaded logo (the files module); its stored address. */
  storeLogo: (
    owner: { tenantId: number; userId: number },
    upload: Parameters<import('../../files/files.service.js').FilesService['store']>[2],
  ) => Promise<string>;
  /** Largest logo, in bytes. */
  logoMaxBytes: number;
}

const done = { 200: Envelope(Type.Null()) };
const protocolOf = (address: string) => {
  try {
    return new URL(address).protocol;
  } catch {
    return '';
  }
};

/**
 * Tenants (platform operators only), and each tenant's own settings, logo and registration
 * agreement (its operators; ADR 031).
 */
export const adminTenantsRoutes: FastifyPluginAsyncTypebox<AdminTenantsDeps> = async (app, deps) => {
  const { repo, operatorOf } = deps;
  const auth = { preHandler: app.authenticate };
  await app.register(multipart, {
    limits: { fileSize: deps.logoMaxBytes, files: 1, fields: 2, parts: 3, fieldSize: 256, headerPairs: 50 },
  });

  const platformOnly = async (req: Parameters<OperatorGate>[0]) => {
    const operator = await operatorOf(req);
    if (!operator.platform) throw new AppError(ResultCode.NO_PERMISSION, 'platformOnly');
    return operator;
  };

  app.get(
    '/api/admin/tenants',
    { ...auth, schema: { querystring: AdminPageQuery, response: { 200: Envelope(Paged(AdminTenant)) } } },
    async (req) => {
      await platformOnly(req);
      const q = req.query;
      return ok(req, await repo.list({ q: q.q?.trim() || undefined, page: q.page ?? 1, limit: q.limit ?? 20 }));
    },
  );

  app.post(
    '/api/admin/tenants',
    {
      ...auth,
      schema: { querystring: AdminTenantQuery, body: TenantCreate, response: { 200: Envelope(Type.String()) } },
    },
    async (req) => {
      await platformOnly(req);
      const { operator, ...t } = req.body;
      const username = acceptUsername(operator.username);
      const operatorName = acceptPersonName(operator.name);
      const password = deps.decryptor.decrypt(operator.password);
      if (checkPassword(password, username).length > 0) throw new AppError(ResultCode.BAD_REQUEST, 'passwordRule');
      const id = await repo
        .create(
          { code: t.code, name: t.name.trim(), nameEn: t.nameEn?.trim(), homeUrl: t.homeUrl?.trim() || null },
          {
            username,
            name: operatorName,
            passwordHash: await deps.hashPassword(password),
            // The platform operator knows it: the tenant's operator sets their own at the first sign-in.
            mustChangePassword: operator.temporary !== false,
          },
        )
        .catch((err: unknown) => {
          if (violatedConstraint(err) === 'tenants_code_unique') throw new AppError(ResultCode.CONFLICT, 'tenantTaken');
          throw err;
        });
      return ok(req, String(id));
    },
  );

  app.patch(
    '/api/admin/tenants/:id',
    { ...auth, schema: { querystring: AdminTenantQuery, params: AdminIdParams, body: TenantPatch, response: done } },
    async (req) => {
      await platformOnly(req);
      const id = rowId(req.params.id);
      if (!(await repo.update(id, req.body))) throw errors.notFound();
      await deps.bus.publish(req.body.disabled ? { kind: 'all' } : { kind: 'tenant', tenant: id });
      return ok(req, null);
    },
  );

  const defaults = Object.fromEntries(
    TENANT_SWITCHES.map((k) => [k, deps.runtime[k]]),
  ) as TenantSettingsView['defaults'];

  app.get(
    '/api/admin/settings',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(TenantSettingsView) } } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      return ok(req, { settings: await deps.settings.stored(tenantId), defaults });
    },
  );

  app.put(
    '/api/admin/settings',
    { ...auth, schema: { querystring: AdminTenantQuery, body: TenantSettings, response: done } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      // Every text has its length and characters by the settings schema (the logo one of the
      // tenant's uploads, ADR 036); the park's home address must also be one a browser can open.
      const { domianURL } = req.body as TenantSettings;
      if (domianURL && !/^https?:$/.test(protocolOf(domianURL)))
        throw new AppError(ResultCode.BAD_REQUEST, 'homeUrlInvalid');
      if (!(await deps.settings.save(tenantId, req.body))) throw errors.notFound();
      return ok(req, null);
    },
  );

  app.post(
    '/api/admin/settings/logo',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(LogoUploaded) } } },
    async (req) => {
      const { tenantId, session } = await operatorOf(req);
      if (!req.isMultipart()) throw new AppError(ResultCode.BAD_REQUEST, 'fileMissing');
      const part = await req.file();
      if (!part || part.fieldname !== 'file') throw new AppError(ResultCode.BAD_REQUEST, 'fileMissing');
      if (!/\.(png|jpe?g)$/i.test(part.filename)) throw new AppError(ResultCode.BAD_REQUEST, 'logoInvalid');
      const logo = await deps.storeLogo({ tenantId, userId: session.userId }, part).catch((err: unknown) => {
        // The files module names its own limit; a logo's is smaller.
        if (err instanceof AppError && err.key === 'fileTooLarge')
          throw new AppError(ResultCode.PAYLOAD_TOO_LARGE, 'logoTooLarge');
        throw err;
      });
      return ok(req, { logo });
    },
  );

  app.get(
    '/api/admin/agreement',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(AgreementEdit) } } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      return ok(req, await repo.agreement(tenantId));
    },
  );

  app.put(
    '/api/admin/agreement',
    { ...auth, schema: { querystring: AdminTenantQuery, body: AgreementEdit, response: done } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      await repo.saveAgreement(tenantId, sanitizeRichText(req.body.html), sanitizeRichText(req.body.htmlEn ?? ''));
      return ok(req, null);
    },
  );
};

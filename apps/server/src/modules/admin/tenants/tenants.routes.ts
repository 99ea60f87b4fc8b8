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
  TenantCreate,
  TenantPatch,
  TenantSettings,
  TenantSettingsView,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../../platform/reply.js';
import { callerOf } from '../caller.js';
import type { AdminTenantsService } from './tenants.service.js';

const done = { 200: Envelope(Type.Null()) };

/**
 * Tenants (platform operators only), and each tenant's own settings, logo and registration
 * agreement (its operators; ADR 031): the rules are the service's.
 */
export const adminTenantsRoutes: FastifyPluginAsyncTypebox<{
  tenants: AdminTenantsService;
  /** Largest logo, in bytes. */
  logoMaxBytes: number;
}> = async (app, { tenants, logoMaxBytes }) => {
  const auth = { preHandler: app.authenticate };
  await app.register(multipart, {
    limits: { fileSize: logoMaxBytes, files: 1, fields: 2, parts: 3, fieldSize: 256, headerPairs: 50 },
  });

  app.get(
    '/api/admin/tenants',
    { ...auth, schema: { querystring: AdminPageQuery, response: { 200: Envelope(Paged(AdminTenant)) } } },
    async (req) => {
      const q = req.query;
      return ok(
        req,
        await tenants.list(callerOf(req), { q: q.q?.trim() || undefined, page: q.page ?? 1, limit: q.limit ?? 20 }),
      );
    },
  );

  app.post(
    '/api/admin/tenants',
    {
      ...auth,
      schema: { querystring: AdminTenantQuery, body: TenantCreate, response: { 200: Envelope(Type.String()) } },
    },
    async (req) => ok(req, String(await tenants.create(callerOf(req), req.body))),
  );

  app.patch(
    '/api/admin/tenants/:id',
    { ...auth, schema: { querystring: AdminTenantQuery, params: AdminIdParams, body: TenantPatch, response: done } },
    async (req) => {
      await tenants.update(callerOf(req), req.params.id, req.body);
      return ok(req, null);
    },
  );

  app.get(
    '/api/admin/settings',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(TenantSettingsView) } } },
    async (req) => ok(req, await tenants.settings(callerOf(req))),
  );

  app.put(
    '/api/admin/settings',
    { ...auth, schema: { querystring: AdminTenantQuery, body: TenantSettings, response: done } },
    async (req) => {
      await tenants.saveSettings(callerOf(req), req.body as TenantSettings);
      return ok(req, null);
    },
  );

  app.post(
    '/api/admin/settings/logo',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(LogoUploaded) } } },
    async (req) => {
      const part = async () => (req.isMultipart() ? ((await req.file()) ?? null) : null);
      return ok(req, { logo: await tenants.uploadLogo(callerOf(req), part) });
    },
  );

  app.get(
    '/api/admin/agreement',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(AgreementEdit) } } },
    async (req) => ok(req, await tenants.agreement(callerOf(req))),
  );

  app.put(
    '/api/admin/agreement',
    { ...auth, schema: { querystring: AdminTenantQuery, body: AgreementEdit, response: done } },
    async (req) => {
      await tenants.saveAgreement(callerOf(req), req.body);
      return ok(req, null);
    },
  );
};

import {
  AdminIdParams,
  AdminOidcClient,
  AdminPageQuery,
  AdminTenantQuery,
  Envelope,
  OidcClientCreated,
  OidcClientInput,
  OidcClientPatch,
  OidcClientSecret,
  Paged,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../../platform/reply.js';
import { callerOf } from '../caller.js';
import type { AdminOidcClientsService } from './oidc-clients.service.js';

const done = { 200: Envelope(Type.Null()) };
const byId = { querystring: AdminTenantQuery, params: AdminIdParams };

/** The tenant's OpenID Connect clients (docs/api.md#oidc-clients). */
export const adminOidcClientsRoutes: FastifyPluginAsyncTypebox<{ clients: AdminOidcClientsService }> = async (
  app,
  { clients },
) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/admin/oidc-clients',
    { ...auth, schema: { querystring: AdminPageQuery, response: { 200: Envelope(Paged(AdminOidcClient)) } } },
    async (req) => {
      const q = req.query;
      return ok(
        req,
        await clients.list(callerOf(req), { page: q.page ?? 1, limit: q.limit ?? 20, q: q.q?.trim() || undefined }),
      );
    },
  );
  app.get(
    '/api/admin/oidc-clients/:id',
    { ...auth, schema: { ...byId, response: { 200: Envelope(AdminOidcClient) } } },
    async (req) => ok(req, await clients.get(callerOf(req), req.params.id)),
  );
  app.post(
    '/api/admin/oidc-clients',
    {
      ...auth,
      schema: { querystring: AdminTenantQuery, body: OidcClientInput, response: { 200: Envelope(OidcClientCreated) } },
    },
    async (req) => ok(req, await clients.create(callerOf(req), req.body)),
  );
  app.patch(
    '/api/admin/oidc-clients/:id',
    { ...auth, schema: { ...byId, body: OidcClientPatch, response: done } },
    async (req) => {
      await clients.update(callerOf(req), req.params.id, req.body);
      return ok(req, null);
    },
  );
  for (const action of ['enable', 'disable'] as const) {
    app.post(`/api/admin/oidc-clients/:id/${action}`, { ...auth, schema: { ...byId, response: done } }, async (req) => {
      await clients.setEnabled(callerOf(req), req.params.id, action === 'enable');
      return ok(req, null);
    });
  }
  app.post(
    '/api/admin/oidc-clients/:id/secret',
    { ...auth, schema: { ...byId, response: { 200: Envelope(OidcClientSecret) } } },
    async (req) => ok(req, await clients.rotateSecret(callerOf(req), req.params.id)),
  );
  app.delete('/api/admin/oidc-clients/:id', { ...auth, schema: { ...byId, response: done } }, async (req) => {
    await clients.remove(callerOf(req), req.params.id);
    return ok(req, null);
  });
};

/**
 * The API's description (ADR 031): an OpenAPI 3.1 document made by @fastify/swagger from the
 * route schemas themselves, so it cannot drift from what the server checks. Served unsigned at
 * `/openapi.json` (a description, not an `/api` call); docs/api.md is checked against it.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

export const OPENAPI_PATH = '/openapi.json';

/** Registered before any route, so every route registered after it is described. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    // The API only: the SPA's addresses, the sign-on server's CAS pages and the health probes are
    // documented in the README.
    transform: ({ schema, url }) => ({ schema: url.startsWith('/api/') ? schema : { ...schema, hide: true }, url }),
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Enterprise Service Portal API',
        version,
        description:
          'Every /api call except /api/resources and /api/ingest is request-signed (see the README); ' +
          'answers are the {status, message, data} envelope.',
      },
      components: {
        securitySchemes: {
          portalToken: { type: 'apiKey', in: 'header', name: 'Authorization_front' },
          deviceKey: { type: 'http', scheme: 'bearer' },
        },
      },
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}

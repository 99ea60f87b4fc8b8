import {
  AdminIdParams,
  AdminMenu,
  AdminTenantQuery,
  Envelope,
  MenuCreate,
  MenuExport,
  MenuMove,
  MenuPatch,
  ResultCode,
  type MenuExportEntry,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, errors } from '../../../platform/errors.js';
import { optionalRowId, rowId } from '../../../platform/ids.js';
import type { OperatorGate } from '../../../platform/operators.js';
import { ok } from '../../../platform/reply.js';
import type { AdminMenusRepository, MenuFields } from './menus.repository.js';

const done = { 200: Envelope(Type.Null()) };
const byId = { querystring: AdminTenantQuery, params: AdminIdParams };
/** An imported tree is bounded as a whole, not only per level. */
const MAX_ENTRIES = 2_000;

/** Where an entry may link: a path of the portal, its placeholders, or an http(s) address. */
const LINK = /^(?:\/(?!\/)[^\s"'<>\\]*|https?:\/\/[^\s"'<>\\@]+|\{(?:PORTAL|SERVER)\}[^\s"'<>\\]*)$/;
const checkLink = (url: string | null | undefined) => {
  if (url && !LINK.test(url.trim())) throw new AppError(ResultCode.BAD_REQUEST, 'entryInvalid');
};

function fields<T extends MenuPatch>(body: T): Partial<MenuFields> {
  checkLink(body.url);
  const { applicationId, roleIds, ...rest } = body;
  return {
    ...rest,
    ...(applicationId !== undefined ? { applicationId: optionalRowId(applicationId) } : {}),
    ...(roleIds !== undefined ? { roleIds: roleIds.map(rowId) } : {}),
  };
}

function countEntries(entries: MenuExportEntry[]): number {
  return entries.reduce((n, e) => {
    checkLink(e.url);
    return n + 1 + countEntries(e.children ?? []);
  }, 0);
}

/** The menu tree editor's calls (ADR 031): entries, moves, and the whole tree out and in. */
export const adminMenusRoutes: FastifyPluginAsyncTypebox<{
  repo: AdminMenusRepository;
  operatorOf: OperatorGate;
}> = async (app, { repo, operatorOf }) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/admin/menus',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(Type.Array(AdminMenu)) } } },
    async (req) => ok(req, await repo.list((await operatorOf(req)).tenantId)),
  );
  app.post(
    '/api/admin/menus',
    {
      ...auth,
      schema: { querystring: AdminTenantQuery, body: MenuCreate, response: { 200: Envelope(Type.String()) } },
    },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      const { parentId, ...rest } = req.body;
      const id = await repo.create(tenantId, optionalRowId(parentId), fields(rest) as MenuFields);
      if (id === null) throw errors.notFound();
      return ok(req, String(id));
    },
  );
  app.patch('/api/admin/menus/:id', { ...auth, schema: { ...byId, body: MenuPatch, response: done } }, async (req) => {
    const { tenantId } = await operatorOf(req);
    if (!(await repo.update(tenantId, rowId(req.params.id), fields(req.body)))) throw errors.notFound();
    return ok(req, null);
  });
  app.post(
    '/api/admin/menus/:id/move',
    { ...auth, schema: { ...byId, body: MenuMove, response: done } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      const result = await repo.move(tenantId, rowId(req.params.id), optionalRowId(req.body.parentId), req.body.index);
      if (result === 'none') throw errors.notFound();
      if (result === 'cycle') throw new AppError(ResultCode.BAD_REQUEST, 'menuCycle');
      return ok(req, null);
    },
  );
  app.delete('/api/admin/menus/:id', { ...auth, schema: { ...byId, response: done } }, async (req) => {
    const { tenantId } = await operatorOf(req);
    const result = await repo.remove(tenantId, rowId(req.params.id));
    if (result === 'none') throw errors.notFound();
    if (result === 'parent') throw new AppError(ResultCode.BAD_REQUEST, 'menuHasChildren');
    return ok(req, null);
  });

  app.get(
    '/api/admin/menus/export',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(MenuExport) } } },
    async (req) => ok(req, { format: 1 as const, menus: await repo.exportTree((await operatorOf(req)).tenantId) }),
  );
  app.post(
    '/api/admin/menus/import',
    {
      ...auth,
      bodyLimit: 1024 * 1024,
      schema: { querystring: AdminTenantQuery, body: MenuExport, response: { 200: Envelope(Type.Integer()) } },
    },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      if (countEntries(req.body.menus) > MAX_ENTRIES) throw new AppError(ResultCode.BAD_REQUEST, 'menuTooLarge');
      const result = await repo.importTree(tenantId, req.body.menus);
      if ('unknown' in result) throw new AppError(ResultCode.BAD_REQUEST, 'menuUnknownCode', { code: result.unknown });
      return ok(req, result.count);
    },
  );
};

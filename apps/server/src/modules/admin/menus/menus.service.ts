/** The menu tree editor (ADR 031): entries, moves, and the whole tree out and in. */
import { ResultCode, type AdminMenu, type MenuCreate, type MenuExportEntry, type MenuPatch } from '@portal/contracts';
import { AppError, errors } from '../../../platform/errors.js';
import { optionalRowId, rowId, type RequestedId } from '../../../platform/ids.js';
import type { InvalidationBus } from '../../../platform/invalidation.js';
import type { Caller, OperatorGate } from '../operators.service.js';
import type { AdminMenusRepository, MenuFields } from './menus.repository.js';

/** An imported tree is bounded as a whole, not only per level. */
export const MAX_MENU_ENTRIES = 2_000;

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

export function createAdminMenusService(deps: {
  repo: AdminMenusRepository;
  operatorOf: OperatorGate;
  bus: Pick<InvalidationBus, 'publish'>;
}) {
  const { repo, operatorOf, bus } = deps;
  /** Every change is announced: the members' open portals load their menu again (ADR 046). */
  const changed = (tenantId: number) => bus.publish({ kind: 'menus', tenant: tenantId });

  return {
    async list(caller: Caller): Promise<AdminMenu[]> {
      return repo.list((await operatorOf(caller)).tenantId);
    },

    /** A new entry under `parentId` (null: at the top); its id. */
    async create(caller: Caller, body: MenuCreate): Promise<number> {
      const { tenantId } = await operatorOf(caller);
      const { parentId, ...rest } = body;
      const id = await repo.create(tenantId, optionalRowId(parentId), fields(rest) as MenuFields);
      if (id === null) throw errors.notFound();
      await changed(tenantId);
      return id;
    },

    async update(caller: Caller, id: RequestedId, p: MenuPatch): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      if (!(await repo.update(tenantId, rowId(id), fields(p)))) throw errors.notFound();
      await changed(tenantId);
    },

    /** Places the entry at `index` under `parentId`, siblings renumbered; never under itself. */
    async move(caller: Caller, id: RequestedId, parentId: RequestedId | null, index: number): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      const result = await repo.move(tenantId, rowId(id), optionalRowId(parentId), index);
      if (result === 'none') throw errors.notFound();
      if (result === 'cycle') throw new AppError(ResultCode.BAD_REQUEST, 'menuCycle');
      await changed(tenantId);
    },

    /** Removes an entry without children. */
    async remove(caller: Caller, id: RequestedId): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      const result = await repo.remove(tenantId, rowId(id));
      if (result === 'none') throw errors.notFound();
      if (result === 'parent') throw new AppError(ResultCode.BAD_REQUEST, 'menuHasChildren');
      await changed(tenantId);
    },

    async exportTree(caller: Caller): Promise<MenuExportEntry[]> {
      return repo.exportTree((await operatorOf(caller)).tenantId);
    },

    /** Replaces the whole menu, once every code it names is found; the number of entries. */
    async importTree(caller: Caller, menus: MenuExportEntry[]): Promise<number> {
      const { tenantId } = await operatorOf(caller);
      if (countEntries(menus) > MAX_MENU_ENTRIES) throw new AppError(ResultCode.BAD_REQUEST, 'menuTooLarge');
      const result = await repo.importTree(tenantId, menus);
      if ('unknown' in result) throw new AppError(ResultCode.BAD_REQUEST, 'menuUnknownCode', { code: result.unknown });
      await changed(tenantId);
      return result.count;
    },
  };
}

export type AdminMenusService = ReturnType<typeof createAdminMenusService>;

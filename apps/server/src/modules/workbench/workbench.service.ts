/**
 * My workbench's arrangement (docs/product/screens.md#fixed-routes /workStand; ADR 028): each user's
 * own, in the tenant of the session. `null` until the user arranges it: the page then shows its default.
 */
import { ResultCode, type WorkbenchLayout } from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import type { ActiveSession } from '../../platform/session.js';
import type { WorkbenchRepository } from './workbench.repository.js';

/** Columns of the workbench's grid. */
const GRID_COLUMNS = 12;

export function createWorkbenchService(deps: { repo: WorkbenchRepository }) {
  const { repo } = deps;
  return {
    layout(s: ActiveSession): Promise<WorkbenchLayout | null> {
      return repo.layout(s.tenantId, s.userId);
    },

    /** Replaces the user's arrangement: each widget once, all within the grid. */
    async save(s: ActiveSession, layout: WorkbenchLayout): Promise<void> {
      const ids = layout.items.map((i) => i.i);
      if (new Set(ids).size !== ids.length) throw new AppError(ResultCode.BAD_REQUEST, 'duplicateWidget');
      if (layout.items.some((i) => i.x + i.w > GRID_COLUMNS)) throw new AppError(ResultCode.BAD_REQUEST, 'outsideGrid');
      await repo.save(s.tenantId, s.userId, layout);
    },
  };
}

export type WorkbenchService = ReturnType<typeof createWorkbenchService>;

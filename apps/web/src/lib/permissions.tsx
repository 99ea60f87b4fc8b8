/**
 * Action-code guards (docs/product/permissions.md#action-codes). A guarded element shows only when one of its codes (comma-separated)
 * is in `auth`, or in `allAuth` with status "0" (not enforced), or in a workflow node's own
 * permission list; type "2" entries of any list are ignored. This is display only: every
 * endpoint checks permission on the server.
 */
import type { MenuData, PermissionItem } from '@portal/contracts';
import type { ReactNode } from 'react';
import { useSession } from './session';

export type NodePermissions = readonly (PermissionItem | string)[];

export function hasPermission(
  codes: string,
  data: Pick<MenuData, 'auth' | 'allAuth'> | null,
  node: NodePermissions = [],
): boolean {
  const wanted = codes
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (wanted.length === 0) return false;
  const counts = (p: PermissionItem) => p.type !== '2';
  return wanted.some(
    (code) =>
      (data?.auth ?? []).some((p) => counts(p) && p.action === code) ||
      (data?.allAuth ?? []).some((p) => counts(p) && p.action === code && p.status === '0') ||
      node.some((p) => (typeof p === 'string' ? p === code : counts(p) && p.action === code)),
  );
}

/** True when the signed-in user may see an element guarded by `codes`. */
export function usePermission(codes: string, node?: NodePermissions): boolean {
  const menu = useSession((s) => s.menu);
  return hasPermission(codes, menu, node);
}

/** Renders its children only when `usePermission(code, node)` allows it; nothing otherwise. */
export function Authorized({ code, node, children }: { code: string; node?: NodePermissions; children: ReactNode }) {
  return usePermission(code, node) ? <>{children}</> : null;
}

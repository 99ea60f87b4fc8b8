/**
 * The menu editor's pure parts (ADR 031): the tree from the server's flat list, and where a drop
 * of antd's Tree puts an entry, as the `{parentId, index}` of `POST /api/admin/menus/:id/move`
 * (`index` counts the new siblings without the entry moved, so it is the entry's final place).
 */
import type { AdminMenu, MenuMove } from '@portal/contracts';

export interface MenuNode extends AdminMenu {
  children: MenuNode[];
}

const bySort = (a: AdminMenu, b: AdminMenu) =>
  a.sort - b.sort || a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The tree of a flat list, siblings by `sort` (then id). An entry whose parent is not in the list,
 * or that would sit inside itself, is shown at the top rather than lost.
 */
export function buildTree(menus: readonly AdminMenu[]): MenuNode[] {
  const nodes = new Map<string, MenuNode>(menus.map((m) => [m.id, { ...m, children: [] }]));
  const parentOf = (id: string) => nodes.get(id)?.parentId ?? null;
  /** Whether following parents from `id` comes back to `id` (a cycle in bad data). */
  const cyclic = (id: string) => {
    const seen = new Set<string>([id]);
    for (let p = parentOf(id); p !== null && nodes.has(p); p = parentOf(p)) {
      if (seen.has(p)) return true;
      seen.add(p);
    }
    return false;
  };
  const roots: MenuNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId !== null ? nodes.get(node.parentId) : undefined;
    if (parent && parent !== node && !cyclic(node.id)) parent.children.push(node);
    else roots.push(node);
  }
  const sort = (list: MenuNode[]) => {
    list.sort(bySort);
    for (const n of list) sort(n.children);
  };
  sort(roots);
  return roots;
}

interface Place {
  node: MenuNode;
  parentId: string | null;
  siblings: MenuNode[];
}

/** Every node of the tree by id, with its parent and its list of siblings (itself included). */
export function placesOf(tree: MenuNode[]): Map<string, Place> {
  const places = new Map<string, Place>();
  const walk = (list: MenuNode[], parentId: string | null) => {
    for (const node of list) {
      places.set(node.id, { node, parentId, siblings: list });
      walk(node.children, node.id);
    }
  };
  walk(tree, null);
  return places;
}

/** What antd's Tree tells of a drop (`onDrop`'s info), reduced to what decides the place. */
export interface Drop {
  dragId: string;
  dropId: string;
  /** False: dropped onto the node (it becomes its first child). */
  dropToGap: boolean;
  /** Relative to the node: -1 before it, 1 after it (0 onto it). */
  position: number;
  /** Whether the node dropped on is expanded (a drop just below an open parent goes first inside it). */
  expanded: boolean;
}

/** antd gives an absolute drop position and the node's `pos` (`0-2-1`): the position relative to the node. */
export function relativePosition(pos: string, dropPosition: number): number {
  const last = Number(pos.split('-').at(-1));
  return dropPosition - last;
}

/**
 * Where a drop puts the dragged entry, as antd shows it: onto a node, first among its children;
 * just after an expanded node that has children, first among them; otherwise before or after the
 * node among its siblings. Null when nothing would change or the drop is impossible (onto itself or
 * into its own branch).
 */
export function moveTarget(tree: MenuNode[], drop: Drop): MenuMove | null {
  const places = placesOf(tree);
  const dragged = places.get(drop.dragId);
  const target = places.get(drop.dropId);
  if (!dragged || !target || drop.dragId === drop.dropId) return null;
  // Not into its own branch.
  for (let p: string | null = target.parentId; p !== null; p = places.get(p)?.parentId ?? null) {
    if (p === drop.dragId) return null;
  }
  let move: MenuMove;
  if (!drop.dropToGap || (drop.position === 1 && drop.expanded && target.node.children.length > 0)) {
    move = { parentId: target.node.id, index: 0 };
  } else {
    const others = target.siblings.filter((n) => n.id !== drop.dragId);
    const at = others.findIndex((n) => n.id === drop.dropId);
    move = { parentId: target.parentId, index: drop.position < 0 ? at : at + 1 };
  }
  return isCurrent(dragged, move) ? null : move;
}

/** The move one step up (-1) or down (1) among its siblings, or null at the end of the list. */
export function stepTarget(tree: MenuNode[], id: string, step: -1 | 1): MenuMove | null {
  const place = placesOf(tree).get(id);
  if (!place) return null;
  const index = place.siblings.findIndex((n) => n.id === id) + step;
  if (index < 0 || index >= place.siblings.length) return null;
  return { parentId: place.parentId, index };
}

function isCurrent(place: Place, move: MenuMove): boolean {
  return move.parentId === place.parentId && move.index === place.siblings.findIndex((n) => n.id === place.node.id);
}

/** The ids of every entry that has children (to open the whole tree). */
export function branchIds(tree: MenuNode[]): string[] {
  return [...placesOf(tree).values()].filter((p) => p.node.children.length > 0).map((p) => p.node.id);
}

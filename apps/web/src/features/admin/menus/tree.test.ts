import type { AdminMenu } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { branchIds, buildTree, moveTarget, relativePosition, stepTarget, type MenuNode } from './tree';

const menu = (id: string, parentId: string | null, sort: number): AdminMenu => ({
  id,
  parentId,
  sort,
  name: `m${id}`,
  path: `/m${id}`,
  component: 'RouteView',
  title: `菜单${id}`,
  titleEn: '',
  icon: null,
  url: null,
  hidden: false,
  applicationId: null,
  roleIds: [],
});

const shape = (nodes: MenuNode[]): unknown[] =>
  nodes.map((n) => (n.children.length ? { [n.id]: shape(n.children) } : n.id));

// 1 ─ 2, 3 (─ 4), 5; 6; 7
const FLAT = [
  menu('6', null, 2),
  menu('3', '1', 1),
  menu('1', null, 1),
  menu('5', '1', 2),
  menu('2', '1', 0),
  menu('4', '3', 0),
  menu('7', null, 3),
];

describe('buildTree', () => {
  it('nests the flat list by parentId, siblings by sort', () => {
    expect(shape(buildTree(FLAT))).toEqual([{ 1: ['2', { 3: ['4'] }, '5'] }, '6', '7']);
  });

  it('breaks a tie of sort by id, numerically', () => {
    expect(shape(buildTree([menu('10', null, 0), menu('9', null, 0), menu('11', null, 0)]))).toEqual(['9', '10', '11']);
  });

  it('shows an entry whose parent is missing, or that sits in a cycle, at the top', () => {
    const tree = buildTree([menu('1', '99', 0), menu('2', '3', 0), menu('3', '2', 1), menu('4', '4', 2)]);
    expect(tree.map((n) => n.id).sort()).toEqual(['1', '2', '3', '4']);
  });

  it('is empty for no entries', () => {
    expect(buildTree([])).toEqual([]);
  });
});

describe('relativePosition', () => {
  it('subtracts the node’s own index from antd’s drop position', () => {
    expect(relativePosition('0-1-2', 1)).toBe(-1);
    expect(relativePosition('0-1-2', 2)).toBe(0);
    expect(relativePosition('0-1-2', 3)).toBe(1);
    expect(relativePosition('0-0', -1)).toBe(-1);
  });
});

describe('moveTarget', () => {
  const tree = buildTree(FLAT);
  const drop = (dragId: string, dropId: string, position: number, dropToGap = true, expanded = false) =>
    moveTarget(tree, { dragId, dropId, position, dropToGap, expanded });

  it('onto a node: its first child', () => {
    expect(drop('7', '6', 0, false)).toEqual({ parentId: '6', index: 0 });
    expect(drop('6', '3', 0, false)).toEqual({ parentId: '3', index: 0 });
  });

  it('before or after a node among its siblings, counted without the entry moved', () => {
    // 2 after 5: siblings without 2 are 3, 5 → index 2.
    expect(drop('2', '5', 1)).toEqual({ parentId: '1', index: 2 });
    // 5 before 2 → first.
    expect(drop('5', '2', -1)).toEqual({ parentId: '1', index: 0 });
    // 2 after 3 → after 3 among 3, 5 → index 1.
    expect(drop('2', '3', 1)).toEqual({ parentId: '1', index: 1 });
    // 7 before 6 at the top → index 1 (after 1).
    expect(drop('7', '6', -1)).toEqual({ parentId: null, index: 1 });
  });

  it('out of its parent into another level', () => {
    expect(drop('4', '6', 1)).toEqual({ parentId: null, index: 2 });
    expect(drop('6', '2', -1)).toEqual({ parentId: '1', index: 0 });
  });

  it('just below an expanded node with children: first inside it', () => {
    expect(drop('7', '3', 1, true, true)).toEqual({ parentId: '3', index: 0 });
    // Collapsed: after it.
    expect(drop('7', '3', 1, true, false)).toEqual({ parentId: '1', index: 2 });
    // Expanded but without children: after it.
    expect(drop('7', '5', 1, true, true)).toEqual({ parentId: '1', index: 3 });
  });

  it('refuses a drop onto itself or into its own branch', () => {
    expect(drop('1', '1', 0, false)).toBeNull();
    expect(drop('1', '4', 0, false)).toBeNull();
    expect(drop('1', '3', 1)).toBeNull();
  });

  it('is null when the entry would stay where it is', () => {
    expect(drop('3', '2', 1)).toBeNull();
    expect(drop('3', '5', -1)).toBeNull();
    expect(drop('2', '1', 0, false)).toBeNull();
  });

  it('is null for ids the tree does not hold', () => {
    expect(drop('42', '1', 0, false)).toBeNull();
  });
});

describe('stepTarget and branchIds', () => {
  const tree = buildTree(FLAT);
  it('moves one step among the siblings, not beyond either end', () => {
    expect(stepTarget(tree, '3', -1)).toEqual({ parentId: '1', index: 0 });
    expect(stepTarget(tree, '3', 1)).toEqual({ parentId: '1', index: 2 });
    expect(stepTarget(tree, '2', -1)).toBeNull();
    expect(stepTarget(tree, '7', 1)).toBeNull();
  });
  it('lists the entries with children', () => {
    expect(branchIds(tree).sort()).toEqual(['1', '3']);
  });
});

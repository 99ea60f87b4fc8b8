/**
 * The registration pickers: the industry tree and the region levels.
 */
import { Type, type Static } from 'typebox';

/** `indTree`: the whole industry tree, or with `parentCode` only that node's direct children. */
export const IndustryTreeQuery = Type.Object({
  parentCode: Type.Optional(Type.String({ pattern: '^[A-Z0-9]{0,8}$' })),
});
export type IndustryTreeQuery = Static<typeof IndustryTreeQuery>;

/**
 * An industry of GB/T 4754-2017: level 1 section (门类, a letter), 2 division (大类, 2 digits),
 * 3 group (中类, 3 digits), 4 class (小类, 4 digits). `children` only in the whole-tree answer,
 * and only under a node that has any.
 */
export const IndustryNode = Type.Cyclic(
  {
    IndustryNode: Type.Object({
      code: Type.String(),
      name: Type.String(),
      level: Type.Integer({ minimum: 1, maximum: 4 }),
      isLeaf: Type.Boolean(),
      children: Type.Optional(Type.Array(Type.Ref('IndustryNode'))),
    }),
  },
  'IndustryNode',
);
export type IndustryNode = Static<typeof IndustryNode>;

/** `regionTreeListByCode`: `qhCode` 0 (or absent, or empty) for the provinces, else a node's code. */
export const RegionQuery = Type.Object({
  qhCode: Type.Optional(Type.String({ pattern: '^[0-9]{0,12}$' })),
});
export type RegionQuery = Static<typeof RegionQuery>;

/**
 * A region of GB/T 2260 by administrative level: 1 province, 2 prefecture city, 3 county/district,
 * 4 town/street (12-digit code). A municipality's children are its districts (level 3).
 */
export const RegionNode = Type.Object({
  code: Type.String(),
  name: Type.String(),
  level: Type.Integer({ minimum: 1, maximum: 4 }),
  isLeaf: Type.Boolean(),
});
export type RegionNode = Static<typeof RegionNode>;

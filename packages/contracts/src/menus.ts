/**
 * Menus and permissions: the signed-in user's menu tree and the permission codes it holds.
 */
import { Type, type Static } from 'typebox';
import { Nullable, Text } from './fields.js';

export const PermissionItem = Type.Object({
  action: Type.String(),
  describe: Type.String(),
  /** Type 2 entries are ignored by the UI guard (docs/product/permissions.md#action-codes). */
  type: Type.String(),
  /** In allAuth: "0" means the code is not enforced, so the element shows for everyone. */
  status: Type.String(),
});
export type PermissionItem = Static<typeof PermissionItem>;

export const MenuMeta = Type.Object({
  title: Type.String(),
  icon: Type.Optional(Nullable(Type.String())),
  url: Type.Optional(Nullable(Type.String())),
  openKeys: Type.Optional(Type.Array(Type.String())),
  isTabs: Type.Optional(Type.Boolean()),
  isSide: Type.Optional(Type.Boolean()),
  internalOrExternal: Type.Optional(Type.Boolean()),
  componentName: Type.Optional(Nullable(Type.String())),
  permissionList: Type.Optional(Type.Array(PermissionItem)),
  keepAlive: Type.Optional(Type.Boolean()),
  serviceType: Type.Optional(Type.Integer()),
  module: Type.Optional(Nullable(Type.String())),
  pageId: Type.Optional(Nullable(Type.String())),
});
export type MenuMeta = Static<typeof MenuMeta>;

export const MenuItem = Type.Cyclic(
  {
    MenuItem: Type.Object({
      id: Type.String(),
      path: Type.String(),
      name: Type.String(),
      hidden: Type.Boolean(),
      parentId: Nullable(Type.String()),
      component: Type.String(),
      redirect: Type.Optional(Nullable(Type.String())),
      route: Type.Optional(Type.String()),
      meta: MenuMeta,
      children: Type.Optional(Type.Array(Type.Ref('MenuItem'))),
    }),
  },
  'MenuItem',
);
export type MenuItem = Static<typeof MenuItem>;

export const PermissionQuery = Type.Object({
  token: Type.Optional(Text(2048)),
  roleId: Type.Optional(Text(64)),
  appCodes: Type.Optional(Text(512)),
  fastRoleCode: Type.Optional(Text(64)),
  targetWb: Type.Optional(Text(64)),
  partWb: Type.Optional(Text(64)),
  serviceCode: Type.Optional(Text(64)),
});
export type PermissionQuery = Static<typeof PermissionQuery>;

export const MenuData = Type.Object({
  auth: Type.Array(PermissionItem),
  allAuth: Type.Array(PermissionItem),
  menu: Type.Array(MenuItem),
});
export type MenuData = Static<typeof MenuData>;

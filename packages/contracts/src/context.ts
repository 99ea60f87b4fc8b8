/**
 * The signed-in user's context (ADR 011): applications, roles and workbenches to switch between, the
 * defaults for the next login, and the account's nickname.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Text } from './fields.js';

export const ApplicationItem = Type.Object({ id: Type.String(), appCode: Type.String(), appName: Type.String() });
export type ApplicationItem = Static<typeof ApplicationItem>;

export const RoleItem = Type.Object({ id: Type.String(), title: Type.String() });
export type RoleItem = Static<typeof RoleItem>;

export const WorkbenchItem = Type.Object({ id: Type.String(), appCode: Type.String(), appName: Type.String() });
export type WorkbenchItem = Static<typeof WorkbenchItem>;

/** A switch of role, application or workbench (ours, ADR 011): the ids from the lists; absent ones stay. */
export const SwitchContextBody = Type.Object({
  roleId: Type.Optional(Id),
  applyId: Type.Optional(Id),
  workbenchId: Type.Optional(Id),
});
export type SwitchContextBody = Static<typeof SwitchContextBody>;

export const UserRolesQuery = Type.Object({
  userId: Type.Optional(Id),
  benchCode: Type.Optional(Text(64)),
});
export type UserRolesQuery = Static<typeof UserRolesQuery>;

export const NickNameBody = Type.Object({
  userId: Id,
  /** Required (docs/product/validation.md#account); trimmed, at most 32 characters. */
  nickName: Type.String({ maxLength: 64 }),
});
export type NickNameBody = Static<typeof NickNameBody>;

export const DefaultLoginBody = Type.Object({
  defaultRoleId: Type.Optional(Id),
  defaultWorkbenchCode: Type.Optional(Text(64)),
});
export type DefaultLoginBody = Static<typeof DefaultLoginBody>;

export const DefaultApplyBody = Type.Object({ defaultApplyId: Id });
export type DefaultApplyBody = Static<typeof DefaultApplyBody>;

export const AppCodeQuery = Type.Object({ fastAppCode: Type.String({ minLength: 1, maxLength: 64 }) });
export type AppCodeQuery = Static<typeof AppCodeQuery>;

export const AppCodeParams = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }),
});
export type AppCodeParams = Static<typeof AppCodeParams>;

export const DefaultSubManagement = Type.Object({ homeUrl: Nullable(Type.String()) });
export type DefaultSubManagement = Static<typeof DefaultSubManagement>;

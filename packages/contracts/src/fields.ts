/**
 * Fields the API's schemas share: row ids in requests, bounded text, nullable values, a route's
 * `:id` and a page of a list.
 */
import { Type, type Static } from 'typebox';

/**
 * A row id in a request (ADR 021): the decimal string answers carry, or the number
 * (docs/product/calls.md#call-list shows `entId` as one). The server reads it with `rowId`
 * (platform/ids.ts), which refuses one that can name no row. Answers carry ids as strings only: `Type.String()`.
 */
export const Id = Type.Union([Type.Integer(), Type.String({ maxLength: 64 })]);
export const Text = (max = 255) => Type.String({ maxLength: max });
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
/** A route's `:id` (a notice, a registered application, a repair request), read with `rowId`. */
export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
});
export type PageQuery = Static<typeof PageQuery>;

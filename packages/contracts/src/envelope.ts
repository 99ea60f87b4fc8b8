import { Type, type Static, type TSchema } from 'typebox';

/** Every API answer is `{status, message, data}` (docs/api.md#every-call). */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ status: Type.Integer(), message: Type.String(), data });

export const ErrorEnvelope = Type.Object({
  status: Type.Integer(),
  message: Type.String(),
  data: Type.Null(),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/** Paged lists are `{rows, total}` inside `data`. */
export const Page = <T extends TSchema>(row: T) =>
  Type.Object({ rows: Type.Array(row), total: Type.Integer({ minimum: 0 }) });

export interface ApiEnvelope<T> {
  status: number;
  message: string;
  data: T;
}

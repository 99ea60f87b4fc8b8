/**
 * Row ids from requests (ADR 021). Answers carry every id as a decimal string; a request may send
 * that string or the number (docs/product/calls.md#call-list shows `entId` as a number), and the contracts' `Id` schema
 * takes both. Here, and only here, an id becomes the number the database is asked with: anything
 * that can name no row (not digits, zero, beyond 2^53) is a 400 `idInvalid`, never a query.
 */
import { ResultCode } from '@portal/contracts';
import { AppError } from './errors.js';

const parse = (value: number | string): number => {
  const n = typeof value === 'number' ? value : /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : NaN;
};

/**
 * A row id as a request names it (text or a number). The services take ids so and parse them only
 * once the caller has been let through (ADR 038): the permission is the first answer, whatever the id.
 */
export type RequestedId = number | string;

/** The row id a request names; 400 `idInvalid` when it can name none. */
export function rowId(value: number | string): number {
  const id = parse(value);
  if (Number.isNaN(id)) throw new AppError(ResultCode.BAD_REQUEST, 'idInvalid');
  return id;
}

/** As `rowId`, for an optional id: absent or empty is null. */
export function optionalRowId(value: number | string | undefined | null): number | null {
  return value === undefined || value === null || value === '' ? null : rowId(value);
}

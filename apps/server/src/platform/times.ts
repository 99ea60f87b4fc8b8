/**
 * A time a filter names (`from`, `to`: a day, or a day and time, as the query pattern lets
 * through), once it is a real one: the pattern admits days that do not exist (2026-02-30) and hours
 * past 23, which PostgreSQL would refuse with an error instead of a 400. Shared by the audit log
 * and the login history.
 */
import { ResultCode } from '@portal/contracts';
import { AppError } from './errors.js';

export function realTime(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const day = text.slice(0, 10);
  const asDay = new Date(`${day}T00:00:00Z`);
  const realDay = !Number.isNaN(asDay.getTime()) && asDay.toISOString().slice(0, 10) === day && day >= '1900';
  if (!realDay || (text.length > 10 && Number.isNaN(Date.parse(text)))) {
    throw new AppError(ResultCode.BAD_REQUEST, 'timeInvalid');
  }
  return text;
}

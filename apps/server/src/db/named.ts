/**
 * Named statements, for measured hot paths only (ADR 022): PostgreSQL parses and plans a named
 * statement once per connection and then only binds its values. Their SQL is written by hand, so
 * each one's row type is stated where it is defined, in the schema's column names.
 */
import type pg from 'pg';

export type NamedStatement<R extends pg.QueryResultRow> = (
  pool: pg.Pool,
  values: unknown[],
) => Promise<pg.QueryResult<R>>;

export function named<R extends pg.QueryResultRow = Record<string, unknown>>(
  name: string,
  text: string,
): NamedStatement<R> {
  return (pool, values) => pool.query<R>({ name, text, values });
}

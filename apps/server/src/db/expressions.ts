/**
 * SQL expressions the repositories share, typed for the query builder (ADR 021).
 */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * A time as the portal shows times (docs/product/data.md#enterprises): China time, `YYYY-MM-DD HH:mm:ss`, or to
 * the minute (`YYYY-MM-DD HH:mm`, bookings and their forms). NULL stays NULL.
 */
export const chinaTime = (column: AnyColumn | SQL, to: 'second' | 'minute' = 'second'): SQL<string> =>
  to === 'second'
    ? sql<string>`to_char(${column} AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS')`
    : sql<string>`to_char(${column} AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI')`;

/** On every row of a page: how many rows the page was cut from. */
export const totalRows = (): SQL.Aliased<number> => sql<number>`count(*) OVER ()`.mapWith(Number).as('total');

/** A page read with `totalRows`: its rows without the count, and the count (0 for an empty page). */
export const pageOf = <T extends { total: number }>(rows: T[]): { records: Omit<T, 'total'>[]; total: number } => ({
  records: rows.map(({ total: _, ...r }) => r),
  total: rows[0]?.total ?? 0,
});

/** A LIKE pattern containing `text` as typed (its wildcards escaped). */
export const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A row's English for `key` as stored in its translations (ADR 020), '' when it has none. */
export const englishOf = (
  translations: AnyColumn | SQL,
  key: 'name' | 'title' | 'contacts' | 'position',
): SQL<string> => sql<string>`coalesce(${translations}->'en'->>${key}, '')`;

/**
 * A name as a reader of `lang` sees it (ADR 020, as `localized` in platform/i18n.ts does for rows
 * read whole): in English, the translation when there is one, else the name.
 */
export const nameIn = (
  lang: 'zh' | 'en',
  name: AnyColumn | SQL,
  translations: AnyColumn | SQL,
  key: 'name' | 'title',
) =>
  lang === 'en' ? sql<string>`coalesce(nullif(${translations}->'en'->>${key}, ''), ${name})` : sql<string>`${name}`;

import { ALERT_SEVERITIES, type Dashboard, type NamedCount, type OpenDashboardQuery } from '@portal/contracts';
import { localized, type Lang } from '../../platform/i18n.js';
import { tenantInQuery } from '../../platform/tenants.js';
import type { OpenPagesRepository } from './open-pages.repository.js';

/** The bucket of rows whose code is missing or names nothing known. */
const OTHER_NAME = { zh: '其他', en: 'Other' } as const;

/** Months of the registrations trend, the current one included. */
export const TREND_MONTHS = 12;

export interface OpenPagesServiceDeps {
  repo: OpenPagesRepository;
  /** The section (门类) of each industry code, named in `lang`; unknown codes absent (the catalog). */
  sectionsOf: (codes: readonly string[], lang: Lang) => Promise<Map<string, { code: string; name: string }>>;
  /** The provinces' names in `lang` by the first two digits of their codes (the catalog). */
  provinceNames: (lang: Lang) => Map<string, string>;
  /** The tenant's id a code names (400 租户不存在 for an unknown code). */
  tenantOf: (code: string | null | undefined) => Promise<number>;
}

/** `YYYY-MM` of the `n` months ending with `last` (`YYYY-MM`), oldest first. */
export function monthsEnding(last: string, n: number): string[] {
  const [year, month] = last.split('-').map(Number) as [number, number];
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const k = year * 12 + (month - 1) - i;
    out.push(`${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`);
  }
  return out;
}

/** Counts summed into buckets by `key` (null: the "other" bucket, code ''), most first, then by code. */
function buckets(
  rows: readonly { code: string | null; count: number }[],
  key: (code: string | null) => { code: string; name: string } | null,
  other: string,
): NamedCount[] {
  const sums = new Map<string, NamedCount>();
  for (const r of rows) {
    const named = key(r.code) ?? { code: '', name: other };
    const sum = sums.get(named.code);
    if (sum) sum.count += r.count;
    else sums.set(named.code, { ...named, count: r.count });
  }
  // The unknown bucket goes last whatever its size: it is not a category of its own.
  return [...sums.values()].sort(
    (a, b) => Number(a.code === '') - Number(b.code === '') || b.count - a.count || a.code.localeCompare(b.code),
  );
}

/**
 * The park at a glance (ADR 027): for anyone who names a tenant, aggregate figures of its
 * resident enterprises, its registrations, and its public devices and their open alerts. Counts
 * only: no name of an enterprise or a person, nothing of a device that is not public.
 */
export function createOpenPagesService(deps: OpenPagesServiceDeps) {
  const { repo } = deps;

  return {
    async dashboard(q: OpenDashboardQuery, lang: Lang): Promise<Dashboard> {
      const tenantId = await deps.tenantOf(tenantInQuery(q));
      const [park, industries, byProvince, months, deviceTypes, alerts, now] = await Promise.all([
        repo.park(tenantId),
        repo.residentsByIndustry(tenantId),
        repo.residentsByProvince(tenantId),
        repo.registrationsByMonth(tenantId, TREND_MONTHS),
        repo.publicDevicesByType(tenantId),
        repo.openAlertsBySeverity(tenantId),
        repo.now(),
      ]);

      const sections = await deps.sectionsOf(
        industries.flatMap((r) => (r.code ? [r.code] : [])),
        lang,
      );
      const provinceNames = deps.provinceNames(lang);
      const other = OTHER_NAME[lang];

      const byMonth = new Map(months.map((m) => [m.month, m.count]));
      const trend = monthsEnding(now.slice(0, 7), TREND_MONTHS).map((month) => ({
        month,
        count: byMonth.get(month) ?? 0,
      }));
      const bySeverity = new Map(alerts.map((a) => [a.severity, a.count]));

      return {
        park: park ? localized(lang, park, 'name') : '',
        generatedTime: now,
        enterprises: {
          total: industries.reduce((sum, r) => sum + r.count, 0),
          registeredThisMonth: trend.at(-1)!.count,
          byIndustry: buckets(
            industries,
            (code) => {
              const section = code ? sections.get(code) : undefined;
              return section ?? null;
            },
            other,
          ),
          byRegion: buckets(
            byProvince,
            (code) => {
              const name = code ? provinceNames.get(code) : undefined;
              return name ? { code: code!, name } : null;
            },
            other,
          ),
        },
        registrations: trend,
        devices: {
          total: deviceTypes.reduce((sum, d) => sum + d.total, 0),
          online: deviceTypes.reduce((sum, d) => sum + d.online, 0),
          byType: [...deviceTypes].sort((a, b) => b.total - a.total || a.type.localeCompare(b.type)),
        },
        alerts: {
          open: alerts.reduce((sum, a) => sum + a.count, 0),
          bySeverity: [...ALERT_SEVERITIES].reverse().map((severity) => ({
            severity,
            count: bySeverity.get(severity) ?? 0,
          })),
        },
      };
    },
  };
}

export type OpenPagesService = ReturnType<typeof createOpenPagesService>;

import type { Dashboard, DeviceAlert } from '@portal/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';

/**
 * A display on a wall says itself that it lost the server (a small marker), and keeps its last
 * figures: no notice per failed poll. 5xx and the logout codes are still handled by docs/product/errors.md#result-codes.
 */
const QUIET = { handledBy: 'the open pages (a marker on the page)' } as const;

/** The park at a glance (open route: no session), read again every `everyMs`. */
export function useOpenDashboard(tenantCode: string, everyMs: number) {
  const { i18n } = useTranslation();
  return useQuery({
    // The language is part of the answer (names are resolved by the server, ADR 020).
    queryKey: ['open-dashboard', tenantCode, i18n.language],
    queryFn: () =>
      request<Dashboard>('/api/open/dashboard', { query: { tc: tenantCode }, anonymous: true, failures: QUIET }),
    placeholderData: keepPreviousData,
    refetchInterval: everyMs,
  });
}

/** The newest open alerts of the park's public devices (the work screen's rolling list). */
export function useLatestOpenAlerts(tenantCode: string, limit: number, everyMs: number) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['open-latest-alerts', tenantCode, limit, i18n.language],
    queryFn: async () =>
      (
        await request<{ rows: DeviceAlert[]; total: number }>('/api/open/device-alerts', {
          query: { tc: tenantCode, state: 'open', limit },
          anonymous: true,
          failures: QUIET,
        })
      ).rows,
    placeholderData: keepPreviousData,
    refetchInterval: everyMs,
  });
}

import type { DeviceAlert, JoinedEnterprise, Notice, WorkbenchLayout } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';

const IN_PLACE = { failures: { handledBy: 'the widget, which says so in place' } } as const;

/** The user's saved arrangement, null until they save one. */
export function useSavedLayout() {
  return useQuery({
    queryKey: ['workbench-layout'],
    queryFn: () => request<WorkbenchLayout | null>('/api/front/workbench/layout', IN_PLACE),
    staleTime: Infinity,
  });
}

export const saveLayout = (layout: WorkbenchLayout) =>
  request<null>('/api/front/workbench/layout', {
    body: layout,
    failures: { handledBy: 'the workbench, which says the layout was not kept' },
  });

export function useUnreadNotices() {
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: ['notices', 'unread', language],
    queryFn: () =>
      request<{ rows: Notice[]; total: number }>('/api/front/letter/replyPage', {
        body: { readStatus: 0, page: 1, limit: 6 },
        ...IN_PLACE,
      }),
  });
}

export function useMyEnterprises() {
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: ['joined-enterprises', 'workbench', language],
    queryFn: () =>
      request<{ rows: JoinedEnterprise[]; total: number }>('/api/front/ent/joinEntList', {
        query: { page: 1, limit: 6 },
        ...IN_PLACE,
      }),
  });
}

/** The park's open alerts (its public devices'), newest first. */
export function useOpenAlerts() {
  const { language } = useTranslation().i18n;
  const tenantCode = useSession((s) => s.userInfo?.tenantCode);
  return useQuery({
    queryKey: ['open-alerts', 'workbench', tenantCode, language],
    queryFn: () =>
      request<{ rows: DeviceAlert[]; total: number }>('/api/open/device-alerts', {
        query: { tenantCode, state: 'open', page: 1, limit: 6 },
        ...IN_PLACE,
      }),
    refetchInterval: 30_000,
  });
}

import type { Device, DeviceAlert, MenuData, OpenAlertQuery, OpenDeviceQuery } from '@portal/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { useSession } from '../../../lib/session';

type Page<T> = { rows: T[]; total: number };
type Query = Record<string, string | number | undefined>;

/** The tenant's public devices (open route: no session needed). */
export function useOpenDevices(q: OpenDeviceQuery) {
  return useQuery({
    queryKey: ['open-devices', q],
    queryFn: () => request<Page<Device>>('/api/open/devices', { query: q as Query, anonymous: true }),
    placeholderData: keepPreviousData,
    // The readings move: the page follows them.
    refetchInterval: 15_000,
  });
}

export function useOpenAlerts(q: OpenAlertQuery) {
  return useQuery({
    queryKey: ['open-alerts', q],
    queryFn: () => request<Page<DeviceAlert>>('/api/open/device-alerts', { query: q as Query, anonymous: true }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
}

/** The signed-in user's permission codes (docs/product/permissions.md#action-codes), for the alert actions; none without a session. */
export function usePermissionData() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: ['permissions', token],
    queryFn: () => request<MenuData>('/api/front/member/front/allPermissionV2', { failures: { handledBy: 'alerts' } }),
    enabled: token !== null,
    staleTime: 60_000,
    retry: false,
  });
}

/** 确认 or 关闭 an alert; the list is read again after. */
export function useHandleAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'acknowledge' | 'close' }) =>
      request<null>(`/api/front/device-alerts/${id}/${action}`, { body: {} }),
    onSettled: () => client.invalidateQueries({ queryKey: ['open-alerts'] }),
  });
}

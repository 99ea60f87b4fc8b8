import type { CurrentEnterprise, EnterpriseMember } from '@portal/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';

/** The session's current enterprise (null without one); a failure shows as docs/product/errors.md#result-codes says. */
export function useCurrentEnterprise() {
  return useQuery({
    queryKey: ['current-enterprise'],
    queryFn: () => request<CurrentEnterprise | null>('/api/front/ent/current'),
    staleTime: 60_000,
  });
}

/** One page of the current enterprise's members. */
export function useEnterpriseMembers(page: number, limit: number) {
  return useQuery({
    queryKey: ['enterprise-members', page, limit],
    queryFn: () =>
      request<{ rows: EnterpriseMember[]; total: number }>('/api/front/ent/members', { query: { page, limit } }),
    placeholderData: keepPreviousData,
  });
}

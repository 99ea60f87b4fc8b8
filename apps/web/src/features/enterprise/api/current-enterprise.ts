import type { CurrentEnterprise } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';

/** The session's current enterprise (null without one); a failure shows as §8 says. */
export function useCurrentEnterprise() {
  return useQuery({
    queryKey: ['current-enterprise'],
    queryFn: () => request<CurrentEnterprise | null>('/api/front/ent/current'),
    staleTime: 60_000,
  });
}

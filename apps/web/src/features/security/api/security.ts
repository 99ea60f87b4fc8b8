/** The calls of the sessions part of 账户安全: my sign-ins (ending them) and my login history. */
import type { LoginHistoryPage, SignIn, SignInsEnded } from '@portal/contracts';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';

const KEY = 'security';
const IN_PLACE = { handledBy: 'the section, which shows the message in place of its list, with a retry' };

export function useMySignIns() {
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: [KEY, 'sessions', language],
    queryFn: () => request<SignIn[]>('/api/front/security/sessions', { failures: IN_PLACE }),
  });
}

export function useMyHistory() {
  const { language } = useTranslation().i18n;
  return useInfiniteQuery({
    queryKey: [KEY, 'history', language],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      request<LoginHistoryPage>('/api/front/security/login-history', {
        query: { limit: 20, ...(pageParam ? { before: pageParam } : {}) },
        failures: IN_PLACE,
      }),
    getNextPageParam: (last) => last.next,
  });
}

/** Ends one sign-in, or all others; the lists are read again. */
export function useEndSignIn() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: [KEY] });
  return {
    end: async (id: string) => {
      await request<null>(`/api/front/security/sessions/${encodeURIComponent(id)}/end`, { method: 'POST', body: {} });
      await refresh();
    },
    endOthers: async () => {
      const r = await request<SignInsEnded>('/api/front/security/sessions/end-others', { method: 'POST', body: {} });
      await refresh();
      return r.ended;
    },
  };
}

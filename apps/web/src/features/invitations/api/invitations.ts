import type { Invitation } from '@portal/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';

const KEY = ['invitations'];

/** One page of the current enterprise's invitations, newest first. */
export function useInvitations(page: number, limit: number) {
  return useQuery({
    queryKey: [...KEY, page, limit],
    queryFn: () =>
      request<{ rows: Invitation[]; total: number }>('/api/front/ent/invitations', { query: { page, limit } }),
    placeholderData: keepPreviousData,
  });
}

/** Invites a mobile number; the form says under the field why one was refused. */
export function useInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mobile: string) =>
      request<null>('/api/front/ent/invitations', {
        body: { mobile },
        failures: { handledBy: 'the invite form, under the mobile field' },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** Revokes an open invitation; a refusal shows as docs/product/errors.md#result-codes says. */
export function useRevokeInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request<null>('/api/front/ent/invitations/revoke', { body: { id } }),
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

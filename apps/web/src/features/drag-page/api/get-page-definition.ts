import type { PageDefinition } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';

/** A drag-page definition by code; the server answers only for pages the user's menu shows. */
export function usePageDefinition(code: string) {
  return useQuery({
    queryKey: ['page-definition', code],
    queryFn: () =>
      request<PageDefinition>(`/api/front/page/definition/${encodeURIComponent(code)}`, {
        failures: { handledBy: 'the tab, which shows why in place of the page' },
      }),
    staleTime: 60_000,
    // A tab's refresh builds the page anew: it asks again rather than showing the cached answer.
    refetchOnMount: 'always',
  });
}

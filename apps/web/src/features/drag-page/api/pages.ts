import type {
  Dashboard,
  PageDocument,
  PageSummary,
  PageVersion,
  PageVersionSummary,
  PublishedPage,
} from '@portal/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';

const PAGES_KEY = ['drag-pages'];
const page = (code: string) => `/api/admin/pages/${encodeURIComponent(code)}`;

/** A drag-page view: its published version; the server answers only for pages the user's menu shows. */
export function usePublishedPage(code: string) {
  return useQuery({
    queryKey: [...PAGES_KEY, 'published', code],
    queryFn: () =>
      request<PublishedPage>(`/api/front/page/definition/${encodeURIComponent(code)}`, {
        failures: { handledBy: 'the tab, which shows why in place of the page' },
      }),
    staleTime: 60_000,
    // A tab's refresh builds the page anew: it asks again rather than showing the cached answer.
    refetchOnMount: 'always',
  });
}

export function usePageList() {
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: [...PAGES_KEY, 'list', language],
    queryFn: () => request<PageSummary[]>('/api/admin/pages', { failures: { handledBy: 'the builder, in place' } }),
  });
}

/** The latest version of page `code` (the one the editor starts from). */
export function useLatestPage(code: string | null) {
  return useQuery({
    queryKey: [...PAGES_KEY, 'latest', code],
    queryFn: () => request<PageVersion>(page(code!), { failures: { handledBy: 'the builder, in place' } }),
    enabled: code !== null,
    // The editor holds its own copy from here; a refetch would not replace the user's work.
    staleTime: Infinity,
  });
}

export function useVersions(code: string | null, open: boolean) {
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: [...PAGES_KEY, 'versions', code, language],
    queryFn: () => request<PageVersionSummary[]>(`${page(code!)}/versions`),
    enabled: code !== null && open,
  });
}

export const fetchVersion = (code: string, version: number) =>
  request<PageVersion>(`${page(code)}/versions/${version}`);

const HANDLED = { failures: { handledBy: 'the builder, which shows the message beside the button' } } as const;

export const savePage = (code: string, baseVersion: number, document: PageDocument) =>
  request<number>(`${page(code)}/versions`, { body: { baseVersion, document }, ...HANDLED });
export const publishPage = (code: string, version: number) =>
  request<null>(`${page(code)}/publish`, { body: { version }, ...HANDLED });
export const restorePage = (code: string, version: number) =>
  request<number>(`${page(code)}/restore`, { body: { version }, ...HANDLED });

/** After a change: the list, the versions and every open view of the pages ask again. */
export function useRefreshPages() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: PAGES_KEY });
}

/**
 * The live figures a figure widget may show (contracts PAGE_MEASURES): the park's dashboard for the
 * viewer's tenant, read while a page that binds one is shown, again every minute.
 */
export function usePageMeasures(enabled: boolean) {
  const { language } = useTranslation().i18n;
  const tenantCode = useSession((s) => s.userInfo?.tenantCode ?? null);
  return useQuery({
    queryKey: ['open-dashboard', tenantCode, language],
    queryFn: () =>
      request<Dashboard>('/api/open/dashboard', {
        query: { tc: tenantCode },
        anonymous: true,
        failures: { handledBy: 'the figure widget, which shows — in place of a figure it could not read' },
      }),
    enabled: enabled && tenantCode !== null,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}

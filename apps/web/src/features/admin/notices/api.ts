/**
 * 通知公告's calls (`/api/admin/notices…`, permission notice:publish): always the caller's own
 * tenant, whichever tenant the rest of the console acts on.
 */
import type {
  AdminNotice,
  AdminNoticeDetail,
  AudienceChoice,
  NoticeRecipient,
  Paged,
  PublishNotice,
  Published,
  RecipientQuery,
  RecipientsCsv,
  UploadedPath,
} from '@portal/contracts';
import { request } from '../../../lib/api/client';
import { adminCall, useAdminQuery } from '../api/admin';

export const NOTICES = '/api/admin/notices';
const own = { own: true } as const;
const path = (id: string, action = '') => `${NOTICES}/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

export const useNotices = (query: { page: number; limit: number; q?: string; state?: 'active' | 'withdrawn' }) =>
  useAdminQuery<Paged<AdminNotice>>(NOTICES, query, own);

export const useNoticeDetail = (id: string) => useAdminQuery<AdminNoticeDetail>(path(id), {}, own);

export const useRecipients = (id: string, query: RecipientQuery) =>
  useAdminQuery<Paged<NoticeRecipient>>(path(id, 'recipients'), query, own);

export const useAudienceChoices = (kind: 'role' | 'enterprise' | 'users', q: string, enabled: boolean) =>
  useAdminQuery<AudienceChoice[]>(`${NOTICES}/audience`, { kind, q: q || undefined }, { ...own, enabled });

export const publishNotice = (body: PublishNotice) =>
  adminCall<Published>(NOTICES, { method: 'POST', body: body as unknown as Record<string, unknown>, own: true });

export const withdrawNotice = (id: string) =>
  adminCall<null>(path(id, 'withdraw'), { method: 'POST', body: {}, own: true });

export const exportRecipients = (id: string, query: RecipientQuery) =>
  adminCall<RecipientsCsv>(path(id, 'recipients/export'), {
    query: query as Record<string, string | number | undefined>,
    own: true,
  });

/** One attachment of the notice being written; its stored path. */
export const uploadAttachment = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return request<UploadedPath>(`${NOTICES}/attachments`, {
    form,
    failures: { handledBy: 'the upload list, which shows the message under the file' },
  });
};

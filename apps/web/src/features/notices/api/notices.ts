import type { FileRef, Notice, UploadedPath } from '@portal/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';

export const NOTICES_KEY = ['notices'];

export interface NoticeFilter {
  readStatus?: 0 | 1;
  answerStatus?: 0 | 1;
  title?: string;
}

/** One page of the caller's notices (docs/product/calls.md#call-list replyPage), in the page's language. */
export function useNoticePage(filter: NoticeFilter, page: number, limit: number, version = 0) {
  const { language } = useTranslation().i18n;
  return useQuery({
    // `version`: the live count's; a new event refetches the list.
    queryKey: [...NOTICES_KEY, 'page', filter, page, limit, language, version],
    queryFn: () =>
      request<{ rows: Notice[]; total: number }>('/api/front/letter/replyPage', { body: { ...filter, page, limit } }),
    placeholderData: keepPreviousData,
  });
}

/** One notice of the caller's (docs/product/calls.md#call-list replyInfo). */
export function useNotice(id: string | null) {
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: [...NOTICES_KEY, 'one', id, language],
    queryFn: () => request<Notice>(`/api/front/letter/replyInfo/${encodeURIComponent(id!)}`),
    enabled: id !== null,
  });
}

export function markRead(id: string): Promise<null> {
  return request('/api/front/letter/editAnswerStatus', {
    body: { id, action: 'read' },
    failures: { handledBy: 'nobody: marking read again on the next open is harmless' },
  });
}

/** 阅办. */
export function confirmNotice(id: string): Promise<null> {
  return request('/api/front/letter/editAnswerStatus', {
    body: { id, action: 'confirm' },
    failures: { handledBy: 'the drawer, which says 提交恢复异常 (docs/product/errors.md#reply)' },
  });
}

export function replyNotice(id: string, replyName: string, content: string, fileList: FileRef[]): Promise<null> {
  return request('/api/front/letter/reply', {
    body: { id, replyName, content, fileList },
    failures: { handledBy: 'the drawer, which says 提交恢复异常 (docs/product/errors.md#reply)' },
  });
}

/**
 * One attachment (uploadReplyFile); the token goes in Authorization_front as on every call. The
 * answer's `data` is the stored path; the reply names it with the file's own name (the server keeps
 * its cleaned copy of that name and shows that one).
 */
export async function uploadReplyFile(file: File): Promise<FileRef> {
  const form = new FormData();
  form.append('file', file);
  const addr = await request<UploadedPath>('/api/front/letter/uploadReplyFile', {
    form,
    failures: { handledBy: 'the upload list, which says why under the file (docs/product/validation.md#attachments)' },
  });
  // The server shows the name it kept; this one only has to pass the reply's text rules.
  // eslint-disable-next-line no-control-regex
  const fileName = [...file.name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')].slice(0, 120).join('');
  return { addr, fileName };
}

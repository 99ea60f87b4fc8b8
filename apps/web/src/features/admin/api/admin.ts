/**
 * The console's calls over `/api/admin/` (ADR 031): each carries the tenant acted on, each list
 * is a query keyed by that tenant and the language, and every change refreshes the console's
 * queries. A list's failure is shown in place by its page (with a retry); a change's failure is the
 * handler's toast with the server's message (ADR 019), and the form stays open.
 */
import type { Paged } from '@portal/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ownMessage, request, type RequestOptions } from '../../../lib/api/client';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { scopeQuery, useScope } from './scope';

export const ADMIN_KEY = 'admin';

type Query = Record<string, string | number | boolean | null | undefined>;

/** One admin call, on the tenant the console acts on (`own`: the caller's own, as on 租户管理). */
export function adminCall<T>(path: string, opts: RequestOptions & { own?: boolean } = {}): Promise<T> {
  const { own, ...rest } = opts;
  return request<T>(path, { ...rest, query: { ...(own ? {} : scopeQuery()), ...rest.query } });
}

const IN_PLACE = { handledBy: 'the console page, which shows the message in place of its list, with a retry' };

/** A read of the console, refetched when the tenant, the language or any console data changes. */
export function useAdminQuery<T>(path: string, query: Query = {}, opts: { enabled?: boolean; own?: boolean } = {}) {
  const tenant = useScope((s) => s.tenant?.code ?? null);
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: [ADMIN_KEY, opts.own ? null : tenant, language, path, query],
    queryFn: () => adminCall<T>(path, { query, failures: IN_PLACE, own: opts.own }),
    enabled: opts.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}

export const usePaged = <T>(path: string, query: Query, opts?: { own?: boolean }) =>
  useAdminQuery<Paged<T>>(path, query, opts);

/**
 * Runs a change: `busy` while it runs, a success toast, the console's queries asked again. Resolves
 * to the call's answer, or undefined when it failed (the failure was shown already).
 */
export function useChange() {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  async function run<T>(call: () => Promise<T>, done?: string): Promise<{ value: T } | undefined> {
    setBusy(true);
    try {
      const value = await call();
      if (done) toast('success', done);
      await client.invalidateQueries({ queryKey: [ADMIN_KEY] });
      return { value };
    } catch (err) {
      // The handler has shown an API failure; what it did not see (the password's encryption) is said here.
      const text = ownMessage(err);
      if (text) toast('error', text);
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}

/** The console's changes, by method. */
export const post = <T = null>(path: string, body?: Record<string, unknown>) =>
  adminCall<T>(path, { method: 'POST', body: body ?? {} });
export const patch = (path: string, body: Record<string, unknown>) => adminCall<null>(path, { method: 'PATCH', body });
export const put = <T = null>(path: string, body: Record<string, unknown>) =>
  adminCall<T>(path, { method: 'PUT', body });
export const remove = (path: string) => adminCall<null>(path, { method: 'DELETE' });

export const idPath = (base: string, id: string, action = '') =>
  `${base}/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

/**
 * The live unread count (ADR 024). One tab of the browser leads (Web Locks): it holds the one
 * event stream, resumes it after a drop with Last-Event-ID, backs off with jitter and never gives
 * up; it shares every count with the other tabs over BroadcastChannel, so all tabs show the same.
 * When the leading tab closes, the lock passes to another, which opens the stream.
 */
import { create } from 'zustand';
import { SIGNING_HEADERS } from '@portal/contracts';
import { request, signHeaders } from '../../../lib/api/client';
import { runtimeConfig } from '../../../lib/config';
import { apiLanguage } from '../../../lib/i18n';
import { menuChanged, useSession } from '../../../lib/session';

const PATH = '/api/front/letter/events';

interface LiveState {
  /** Unread notices, or null before the first count. */
  unread: number | null;
  /** Raised with each event, so lists refetch. */
  version: number;
}

export const useLiveNotices = create<LiveState>(() => ({ unread: null, version: 0 }));

/** A count (hello, notice, read), or the tenant's menu changed (every tab loads its menu again). */
type Message = { unread: number; event: string } | { event: 'menu' };

const apply = (m: Message) => {
  if (!('unread' in m)) {
    menuChanged();
    return;
  }
  const { unread, event } = m;
  useLiveNotices.setState((s) => ({ unread, version: event === 'hello' ? s.version : s.version + 1 }));
};

/** Parses server-sent event frames out of `buffer`; what is left is an incomplete frame. */
export function parseFrames(buffer: string): { frames: { id?: string; event: string; data: string }[]; rest: string } {
  const frames: { id?: string; event: string; data: string }[] = [];
  const parts = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = parts.pop() ?? '';
  for (const part of parts) {
    const frame: { id?: string; event: string; data: string } = { event: 'message', data: '' };
    for (const line of part.split('\n')) {
      if (line.startsWith(':')) continue;
      const at = line.indexOf(':');
      const field = at === -1 ? line : line.slice(0, at);
      const value = at === -1 ? '' : line.slice(at + 1).replace(/^ /, '');
      if (field === 'id') frame.id = value;
      else if (field === 'event') frame.event = value;
      else if (field === 'data') frame.data += (frame.data ? '\n' : '') + value;
    }
    if (frame.data) frames.push(frame);
  }
  return { frames, rest };
}

/** The wait before reconnect attempt `n` (from 0): doubling from 1 s up to 30 s, with jitter. */
export const backoffMs = (n: number, random = Math.random) => Math.min(30_000, 1000 * 2 ** n) * (0.5 + random() / 2);

/** Holds the stream while `signal` lives: reads, shares, reconnects. */
async function lead(signal: AbortSignal, share: (m: Message) => void): Promise<void> {
  let lastId: string | null = null;
  let attempt = 0;
  /** A stream said hello before: a later hello is a reconnect. */
  let greeted = false;
  while (!signal.aborted) {
    const token = useSession.getState().token;
    if (!token) return;
    try {
      const query = { language: apiLanguage() };
      const res = await fetch(`${runtimeConfig().baseurl.replace(/\/$/, '')}${PATH}?language=${query.language}`, {
        headers: {
          ...signHeaders(PATH, query),
          [SIGNING_HEADERS.token]: token,
          accept: 'text/event-stream',
          ...(lastId ? { 'last-event-id': lastId } : {}),
        },
        signal,
      });
      // A refused session ends here: the portal's own calls sign the user out (docs/product/errors.md#result-codes).
      if (res.status === 401) return;
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      attempt = 0;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const { frames, rest } = parseFrames(buffer + value);
        buffer = rest;
        for (const f of frames) {
          if (f.id) lastId = f.id;
          // The tenant's menu changed (ADR 046); and after a drop it may have meanwhile.
          if (f.event === 'menu' || (f.event === 'hello' && greeted)) share({ event: 'menu' });
          if (f.event === 'hello') greeted = true;
          if (f.event === 'menu') continue;
          const data = JSON.parse(f.data) as { unread?: number; last?: number };
          if (f.event === 'hello' && lastId === null && data.last !== undefined) lastId = String(data.last);
          if (typeof data.unread === 'number') share({ unread: data.unread, event: f.event });
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((r) => setTimeout(r, backoffMs(attempt++)));
  }
}

/** Starts the live count for this tab; the returned function stops it (logout, unmount). */
export function startLiveNotices(): () => void {
  const stop = new AbortController();
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('portal-notices');
  if (channel) channel.onmessage = (e: MessageEvent<Message>) => apply(e.data);
  const share = (m: Message) => {
    apply(m);
    channel?.postMessage(m);
  };
  // Until the leading tab says otherwise: this tab's own count, once.
  void request<{ unread: number }>('/api/front/letter/unread', {
    failures: { handledBy: 'nobody: the bell shows no number until the stream gives one' },
  })
    .then(({ unread }) => {
      if (useLiveNotices.getState().unread === null) useLiveNotices.setState({ unread });
    })
    .catch(() => undefined);
  if (typeof navigator !== 'undefined' && navigator.locks) {
    // Waits for the lock; whichever tab holds it keeps the stream until it closes or stops.
    void navigator.locks
      .request('portal-notices-stream', { signal: stop.signal }, () => lead(stop.signal, share))
      .catch(() => undefined);
  } else {
    void lead(stop.signal, share);
  }
  return () => {
    stop.abort();
    channel?.close();
  };
}

import { Button, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setToken } from '../../../lib/session';
import { exchangeTicket, signOnLoginUrl } from '../api/sign-on';

const GUARD_KEY = 'portal_signOnRedirects';
const GUARD_WINDOW_MS = 60_000;
const GUARD_MAX = 3;

/** Redirects to the sign-on server within the last minute (the loop guard), kept per tab. */
function recentRedirects(): number[] {
  try {
    const list = JSON.parse(sessionStorage.getItem(GUARD_KEY) ?? '[]') as number[];
    return list.filter((t) => Date.now() - t < GUARD_WINDOW_MS);
  } catch {
    return [];
  }
}

/** This page's address without `ticket`: the service the sign-on server sends the ticket to. */
export function serviceAddress(href = window.location.href): string {
  const url = new URL(href);
  const q = new URLSearchParams(url.search);
  q.delete('ticket');
  return `${url.origin}${url.pathname}${q.size ? `?${q}` : ''}`;
}

export interface SignOnEntryProps {
  tenantCode: string;
  /** Where to go once signed in. */
  onSignedIn: () => void;
}

/**
 * /login when a sign-on server is configured (spec §4): back from it with a ticket, the ticket is
 * exchanged for a token; otherwise off to its login, with this address (deep link and kept
 * parameters included) as the service. More than three trips within a minute stop with a message
 * instead of looping.
 */
export function SignOnEntry({ tenantCode, onSignedIn }: SignOnEntryProps) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const ticket = new URLSearchParams(window.location.search).get('ticket');
    if (ticket) {
      exchangeTicket(ticket, serviceAddress()).then(
        (token) => {
          sessionStorage.removeItem(GUARD_KEY);
          setToken(token);
          onSignedIn();
        },
        (err: unknown) => setError(err instanceof Error ? err.message : String(err)),
      );
      return;
    }
    const trips = recentRedirects();
    if (trips.length >= GUARD_MAX) {
      setError(t('signOn.loop'));
      return;
    }
    sessionStorage.setItem(GUARD_KEY, JSON.stringify([...trips, Date.now()]));
    window.location.replace(signOnLoginUrl(tenantCode, serviceAddress()));
  }, [onSignedIn, t, tenantCode]);

  if (!error) return <Spin fullscreen tip={t('signOn.redirecting')} />;
  return (
    <Result
      status="warning"
      title={t('signOn.failed')}
      subTitle={error}
      extra={
        <Button
          type="primary"
          onClick={() => {
            sessionStorage.removeItem(GUARD_KEY);
            window.location.replace(signOnLoginUrl(tenantCode, serviceAddress()));
          }}
        >
          {t('signOn.retry')}
        </Button>
      }
    />
  );
}

import { Button, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { setToken } from '../../../lib/session';
import { messageOf } from '../../../lib/api/client';
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

const STATE_KEY = 'portal_signOnState';
/** The service parameter that ties a returning ticket to the trip this tab started. */
const STATE_PARAM = 'signOnState';

/**
 * This page's address without `ticket` (the service the ticket was issued for), or, with `state`,
 * the address to send the sign-on server: that trip's state in place of an earlier one.
 */
function serviceAddress(href = window.location.href, state?: string): string {
  const url = new URL(href);
  const q = new URLSearchParams(url.search);
  q.delete('ticket');
  if (state !== undefined) q.set(STATE_PARAM, state);
  return `${url.origin}${url.pathname}${q.size ? `?${q}` : ''}`;
}

/**
 * The address of a new trip to the sign-on server. A random state, kept in this tab only, goes
 * into the service address, so a ticket counts only if it comes back to the tab that asked for it:
 * a link carrying someone else's ticket (login CSRF) is not exchanged.
 */
function newTrip(tenantCode: string): string {
  const state = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  sessionStorage.setItem(STATE_KEY, state);
  return signOnLoginUrl(tenantCode, serviceAddress(window.location.href, state));
}

/** The returned ticket, if it answers this tab's trip (its state spent either way). */
function returnedTicket(): string | null {
  const q = new URLSearchParams(window.location.search);
  const ticket = q.get('ticket');
  if (!ticket) return null;
  try {
    const expected = sessionStorage.getItem(STATE_KEY);
    sessionStorage.removeItem(STATE_KEY);
    return expected !== null && q.get(STATE_PARAM) === expected ? ticket : null;
  } catch {
    return null; // storage blocked: the new trip says so
  }
}

export interface SignOnEntryProps {
  tenantCode: string;
  /** Where to go once signed in. */
  onSignedIn: () => void;
}

/**
 * /login when a sign-on server is configured (docs/product/behaviour.md#sign-on): back from it with a ticket for this tab's
 * trip, the ticket is exchanged for a token; otherwise (no ticket, or one this tab did not ask
 * for) off to its login, with this address (deep link and kept parameters included) as the
 * service. More than three trips within a minute stop with a message instead of looping.
 */
export function SignOnEntry({ tenantCode, onSignedIn }: SignOnEntryProps) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const ticket = returnedTicket();
    if (ticket) {
      exchangeTicket(ticket, serviceAddress()).then(
        (token) => {
          sessionStorage.removeItem(GUARD_KEY);
          setToken(token);
          onSignedIn();
        },
        (err: unknown) => setError(messageOf(err)),
      );
      return;
    }
    const trips = recentRedirects();
    if (trips.length >= GUARD_MAX) {
      setError(t('signOn.loop'));
      return;
    }
    try {
      sessionStorage.setItem(GUARD_KEY, JSON.stringify([...trips, Date.now()]));
      window.location.replace(newTrip(tenantCode));
    } catch {
      setError(t('signOn.storage')); // without the tab's storage a returning ticket can't be matched
    }
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
            try {
              sessionStorage.removeItem(GUARD_KEY);
              window.location.replace(newTrip(tenantCode));
            } catch {
              setError(t('signOn.storage'));
            }
          }}
        >
          {t('signOn.retry')}
        </Button>
      }
    />
  );
}

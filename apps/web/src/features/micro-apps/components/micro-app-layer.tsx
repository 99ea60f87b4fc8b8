import { Button, Result, Spin } from 'antd';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { runtimeConfig } from '../../../lib/config';
import { useTranslation } from '../../../lib/i18n';
import { scriptHost } from '../host/script-host';
import type { MountedApp } from '../host/adapter';
import { hostProps, type HostServices, type RouteChannel } from '../host-props';
import './micro-app-layer.css';

/** docs/product/errors.md#routes: a chunk that has not loaded in 120 s has failed. */
const LOAD_TIMEOUT_MS = 120_000;

/** An open tab that shows a page of a sub-application. */
export interface MicroTab {
  key: string;
  code: string;
  entry: string;
  name: string;
  route: string;
}

/**
 * The sub-applications of the open tabs (ADR 025), beside the tab panels rather than inside them:
 * React's `<Activity>` destroys a hidden subtree's effects, and a sub-application must live on
 * while its tab is hidden. One instance per application, alive while any of its tabs is open,
 * shown when one of them is active and told that tab's route; at most `microAppMax` alive, the
 * least recently used let go first (its tabs stay; it loads again when one is shown).
 */
export function MicroAppLayer({
  tabs,
  active,
  shown,
  services,
}: {
  tabs: MicroTab[];
  active: string;
  shown: boolean;
  services: HostServices;
}) {
  const current = tabs.find((t) => t.key === active) ?? null;
  // Application codes, most recently shown first.
  const [recent, setRecent] = useState<string[]>([]);
  useLayoutEffect(() => {
    if (current) setRecent((r) => (r[0] === current.code ? r : [current.code, ...r.filter((c) => c !== current.code)]));
  }, [current]);

  const alive = useMemo(() => {
    const open = new Map<string, MicroTab>();
    for (const t of tabs) if (!open.has(t.code)) open.set(t.code, t);
    const order = current ? [current.code, ...recent.filter((c) => c !== current.code)] : recent;
    return order
      .filter((c) => open.has(c))
      .slice(0, runtimeConfig().microAppMax)
      .map((c) => open.get(c)!);
  }, [tabs, recent, current]);

  return alive.map((app) => (
    <MicroApp
      key={app.code}
      code={app.code}
      entry={app.entry}
      name={app.name}
      route={current?.code === app.code ? current.route : null}
      visible={shown && current?.code === app.code}
      services={services}
    />
  ));
}

type Load = { state: 'loading' } | { state: 'ready' } | { state: 'failed'; message: string };

/** One sub-application: mounted once into a container React never touches, destroyed on unmount. */
function MicroApp({
  code,
  entry,
  name,
  route,
  visible,
  services,
}: {
  code: string;
  entry: string;
  name: string;
  /** The route its active tab shows; null while none of its tabs is active. */
  route: string | null;
  visible: boolean;
  services: HostServices;
}) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const channel = useRef<RouteChannel>({ current: route ?? '/', listeners: new Set() });
  const servicesRef = useRef(services);
  servicesRef.current = services;
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // A tab of the application became active with another route: the application follows.
  useEffect(() => {
    const c = channel.current;
    if (route === null || route === c.current) return;
    c.current = route;
    c.listeners.forEach((listener) => listener(route));
  }, [route]);

  useEffect(() => {
    const container = document.createElement('div');
    container.className = 'micro-app-root';
    host.current!.appendChild(container);
    let cancelled = false;
    let mounted: MountedApp | null = null;
    const routes = channel.current;
    setLoad({ state: 'loading' });
    const services = {
      navigate: (p: string, title?: string) => servicesRef.current.navigate(p, title),
      logout: () => servicesRef.current.logout(),
    };
    scriptHost
      .mount({ code, entry, container, props: hostProps(code, routes, services), timeoutMs: LOAD_TIMEOUT_MS })
      .then(
        (app) => {
          if (cancelled) void app.destroy();
          else {
            mounted = app;
            setLoad({ state: 'ready' });
          }
        },
        (err: unknown) => {
          if (cancelled) return;
          const timedOut = err instanceof Error && /did not load within/.test(err.message);
          // The reason for whoever looks into it; the person at the screen gets what to do.
          console.warn(`sub-application ${code} did not load:`, err);
          setLoad({
            state: 'failed',
            message: timedOut
              ? t('microApps.timedOut', { name, seconds: LOAD_TIMEOUT_MS / 1000 })
              : t('microApps.unreachable'),
          });
        },
      );
    return () => {
      cancelled = true;
      routes.listeners.clear();
      void mounted?.destroy().finally(() => container.remove());
      if (!mounted) container.remove();
    };
    // The name and translations are read when a load fails; a change of them is no reason to reload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, entry, attempt]);

  // The window's scroll position of this application, kept while another tab is shown. Layout
  // effects: the listener goes before the browser clamps the scroll to the next page's height.
  const scrollY = useRef(0);
  useLayoutEffect(() => {
    if (!visible) return;
    window.scrollTo(0, scrollY.current);
    const keep = () => (scrollY.current = window.scrollY);
    window.addEventListener('scroll', keep, { passive: true });
    return () => window.removeEventListener('scroll', keep);
  }, [visible]);

  return (
    <section className="micro-app" hidden={!visible} aria-label={name} data-micro-app={code}>
      <div ref={host} className="micro-app-host" hidden={load.state === 'failed'} />
      {load.state === 'loading' ? (
        <div className="micro-app-loading" role="status">
          <Spin />
          <span>{t('microApps.loading', { name })}</span>
        </div>
      ) : null}
      {load.state === 'failed' ? (
        <Result
          status="error"
          title={t('microApps.failed', { name })}
          subTitle={load.message}
          extra={
            <Button type="primary" autoInsertSpace={false} onClick={() => setAttempt((a) => a + 1)}>
              {t('microApps.retry')}
            </Button>
          }
        />
      ) : null}
    </section>
  );
}

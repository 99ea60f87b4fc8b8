import type { MicroHostProps } from '@portal/contracts';
import { useEffect, useState } from 'react';
import { HostContext } from './host';
import { Meeting } from './meeting';
import { RepairDetail, Repairs } from './repairs';
import { texts } from './texts';

/**
 * The routes of the sub-application. The host says which route its active tab shows; every route
 * visited stays rendered (hidden when another shows), so a half-filled form survives a switch to
 * another tab of the same sub-application.
 */
export function App({ host, mounts }: { host: MicroHostProps | null; mounts: number }) {
  if (!host)
    return (
      <p className="park-alone">
        {texts.zh.openInPortal} {texts.en.openInPortal}
      </p>
    );
  return (
    <HostContext.Provider value={host}>
      <Routes host={host} mounts={mounts} />
    </HostContext.Provider>
  );
}

function Routes({ host, mounts }: { host: MicroHostProps; mounts: number }) {
  const [route, setRoute] = useState(host.route);
  const [visited, setVisited] = useState<string[]>([host.route]);
  useEffect(
    () =>
      host.onRouteChange((next) => {
        setRoute(next);
        setVisited((v) => (v.includes(next) ? v : [...v, next]));
      }),
    [host],
  );
  return (
    <div className="park-app" lang={host.language === 'en' ? 'en' : 'zh-CN'} data-mounts={mounts}>
      {visited.map((r) => (
        <section key={r} className="park-route" hidden={r !== route}>
          <Page route={r} />
        </section>
      ))}
    </div>
  );
}

function Page({ route }: { route: string }) {
  const detail = /^\/repair\/(\d{1,19})$/.exec(route);
  if (detail) return <RepairDetail id={detail[1]!} />;
  if (route === '/meeting') return <Meeting />;
  return <Repairs />;
}

import { Outlet } from 'react-router';
import { NotFoundView } from '../../features/shell/components/not-found-view';
import { AntdProvider } from '../../lib/antd';
import { useSession } from '../../lib/session';

/** /404: on its own without a session; signed in, the shell shows it (the nested routes). */
export function NotFoundRoute() {
  const signedIn = useSession((s) => s.token) !== null;
  if (signedIn) return <Outlet />;
  return (
    <AntdProvider>
      <NotFoundView />
    </AntdProvider>
  );
}

import { Navigate, useLocation } from 'react-router';
import { isPermitted } from '../../features/shell/menu';
import { useSession } from '../../lib/session';
import { storage } from '../../lib/storage';

/**
 * `/`: the stored home path when the user's menu permits it, else the user's default home URI,
 * else /index (docs/product/screens.md#home).
 */
export function HomeRedirect() {
  const { userInfo, menu } = useSession();
  const location = useLocation();
  const items = menu?.menu ?? [];
  const stored = storage.get<string>('homePath');
  const homeUri = userInfo?.homeUri;
  let target = '/index';
  if (stored && isPermitted(items, stored)) target = stored;
  else if (homeUri && homeUri.startsWith('/') && !homeUri.startsWith('//')) target = homeUri;
  return <Navigate to={{ pathname: target.split('?')[0], search: location.search }} replace />;
}

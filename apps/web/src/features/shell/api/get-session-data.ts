import type { MenuData, MicroApp, UserInfo } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { setMenu, setMicroApps, setUserInfo } from '../../../lib/session';
import { storage } from '../../../lib/storage';

/**
 * Session start (docs/product/behaviour.md#session-start): with a token, user info, the tenant's micro-apps and the role's menu are
 * loaded once, then kept in the session store. A reload loads them again; nothing else does until
 * a switch.
 */
async function loadSessionData(): Promise<{ userInfo: UserInfo; menu: MenuData }> {
  const userInfo = await request<UserInfo>('/api/front/member/front/infoV2', {
    query: { benchCode: storage.get('benchCode'), wbCode: storage.get('workbenchCode') },
  });
  setUserInfo(userInfo);
  const [menu, microApps] = await Promise.all([
    request<MenuData>('/api/front/member/front/allPermissionV2', {
      query: {
        appCodes: storage.get('appCode'),
        targetWb: storage.get('benchCode'),
        partWb: storage.get('partBench'),
      },
    }),
    request<MicroApp[]>(`/api/front/microFrontend/service/selectAllByTenant/${userInfo.tenantId}`),
  ]);
  // The apps first: the menu's pages resolve against them.
  setMicroApps(microApps);
  setMenu(menu);
  return { userInfo, menu };
}

export function useSessionData(token: string | null) {
  return useQuery({
    queryKey: ['session-data', token],
    queryFn: loadSessionData,
    enabled: token !== null,
    staleTime: Infinity,
    retry: false,
  });
}

import type { MenuData, MicroApp, UserInfo } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { request } from '../../../lib/api/client';
import { menuChanged, setMenu, setMicroApps, setUserInfo, useSession } from '../../../lib/session';
import { storage } from '../../../lib/storage';

/** The role's menu and permissions, for the stored application and workbench. */
const loadMenu = () =>
  request<MenuData>('/api/front/member/front/allPermissionV2', {
    query: {
      appCodes: storage.get('appCode'),
      targetWb: storage.get('benchCode'),
      partWb: storage.get('partBench'),
    },
  });

/**
 * Session start (docs/product/behaviour.md#session-start): with a token, user info, the tenant's micro-apps and the role's menu are
 * loaded once, then kept in the session store. A reload loads them again, and so does a switch;
 * the menu alone is loaded again whenever the live stream says the tenant's menu changed.
 */
async function loadSessionData(): Promise<{ userInfo: UserInfo; menu: MenuData }> {
  const userInfo = await request<UserInfo>('/api/front/member/front/infoV2', {
    query: { benchCode: storage.get('benchCode'), wbCode: storage.get('workbenchCode') },
  });
  setUserInfo(userInfo);
  const [menu, microApps] = await Promise.all([
    loadMenu(),
    request<MicroApp[]>(`/api/front/microFrontend/service/selectAllByTenant/${userInfo.tenantId}`),
  ]);
  // The apps first: the menu's pages resolve against them.
  setMicroApps(microApps);
  setMenu(menu);
  return { userInfo, menu };
}

/** A tab shown again after this long loads its menu again (the stream may be off: notices are a switch). */
const SHOWN_AGAIN_MS = 10_000;

/**
 * Loads the menu again on each change the live stream announces (ADR 046), and when the tab is
 * shown or focused again after a while (without notices there is no stream). Changes in quick
 * succession (a drag, then another) each load it; only the answer to the latest is kept, so an
 * answer that arrives late never brings an older order back.
 */
function useMenuFollowsChanges(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    let latest = 0;
    let loadedAt = Date.now();
    const stop = useSession.subscribe((s, prev) => {
      if (s.menuChanges === prev.menuChanges) return;
      const asked = ++latest;
      loadedAt = Date.now();
      loadMenu().then(
        (menu) => {
          if (asked === latest) setMenu(menu);
        },
        () => undefined, // the menu shown stays; the next change or a reload loads it again
      );
    });
    const shownAgain = () => {
      if (document.visibilityState === 'visible' && Date.now() - loadedAt > SHOWN_AGAIN_MS) menuChanged();
    };
    window.addEventListener('focus', shownAgain);
    document.addEventListener('visibilitychange', shownAgain);
    return () => {
      stop();
      window.removeEventListener('focus', shownAgain);
      document.removeEventListener('visibilitychange', shownAgain);
    };
  }, [enabled]);
}

export function useSessionData(token: string | null) {
  useMenuFollowsChanges(token !== null);
  return useQuery({
    queryKey: ['session-data', token],
    queryFn: loadSessionData,
    enabled: token !== null,
    staleTime: Infinity,
    retry: false,
  });
}

import { runtimeConfig } from '../../lib/config';
import { useSession } from '../../lib/session';
import { storage } from '../../lib/storage';
import type { PageContext } from './pages';
import { layoutTheme } from './theme';

/** What page resolution depends on besides the menu: theme, current application, workbench. */
export function usePageContext(): PageContext {
  const userInfo = useSession((s) => s.userInfo);
  return {
    jzh: layoutTheme(runtimeConfig()) === 'jzh',
    appCode: storage.get<string>('appCode') ?? userInfo?.defaultApplyCode ?? null,
    workbenchCode: storage.get<string>('workbenchCode'),
  };
}

import { signOut } from '../../features/auth/api/logout';
import { DragPage } from '../../features/drag-page/components/drag-page';
import { BasicLayout } from '../../features/shell/components/basic-layout';
import { useAccountMenu } from '../../features/switching/components/account-dialogs';
import { ShellViewsContext, type ShellViews } from '../../features/shell/views';
import { LanguageToggle } from '../language-toggle';

const views: ShellViews = { dragPage: (code) => <DragPage code={code} /> };

export function LayoutRoute() {
  const account = useAccountMenu();
  return (
    <ShellViewsContext.Provider value={views}>
      <BasicLayout onLogout={() => void signOut()} userMenu={account.menu} headerExtra={<LanguageToggle reload />} />
      {account.dialogs}
    </ShellViewsContext.Provider>
  );
}

export { ShellContent } from '../../features/shell/components/shell-content';

import { signOut } from '../../features/auth/api/logout';
import { DragPage } from '../../features/drag-page/components/drag-page';
import { BasicLayout } from '../../features/shell/components/basic-layout';
import { ShellViewsContext, type ShellViews } from '../../features/shell/views';
import { LanguageToggle } from '../language-toggle';

const views: ShellViews = { dragPage: (code) => <DragPage code={code} /> };

export function LayoutRoute() {
  return (
    <ShellViewsContext.Provider value={views}>
      <BasicLayout onLogout={() => void signOut()} headerExtra={<LanguageToggle reload />} />
    </ShellViewsContext.Provider>
  );
}

export { ShellContent } from '../../features/shell/components/shell-content';

import { useContext, useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { leafItems, menuPath, NO_ITEMS } from '../menu';
import { useTabs } from '../tabs/store';
import { ShellViewsContext } from '../views';
import { Panel } from './panel';
import { Shortcuts } from './shortcuts';

/**
 * /workStand, my workbench (JZH theme, ENT_WORKBENCH application): the feature the app wires in,
 * given the menu's pages and the ones used lately; without one, the pages at hand.
 */
export function WorkbenchPage() {
  const { t } = useTranslation();
  const { workbench } = useContext(ShellViewsContext);
  const menu = useSession((s) => s.menu?.menu ?? NO_ITEMS);
  const visited = useTabs((s) => s.visited);
  const pages = useMemo(() => leafItems(menu).filter((i) => !i.meta.internalOrExternal), [menu]);
  const links = useMemo(() => pages.map((i) => ({ path: menuPath(i), title: i.meta.title })), [pages]);
  const recent = useMemo(() => visited.flatMap((path) => links.filter((l) => l.path === path)), [visited, links]);
  if (workbench) {
    const shortcuts = (paths: string[]) => (
      <Shortcuts items={paths.flatMap((p) => pages.filter((i) => menuPath(i) === p))} lg={6} />
    );
    return <>{workbench({ pages: links, recent, shortcuts })}</>;
  }
  return (
    <Panel title={t('shell.workbench')}>
      <Shortcuts items={pages} lg={4} />
    </Panel>
  );
}

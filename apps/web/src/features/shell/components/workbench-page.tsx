import { Card } from 'antd';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { storage } from '../../../lib/storage';
import { leafItems, NO_ITEMS } from '../menu';
import { Shortcuts } from './shortcuts';

/** /workStand, my workbench (JZH theme, ENT_WORKBENCH application): the workbench's pages at hand. */
export function WorkbenchPage() {
  const { t } = useTranslation();
  const menu = useSession((s) => s.menu?.menu ?? NO_ITEMS);
  const pages = leafItems(menu).filter((i) => !i.meta.internalOrExternal);
  const bench = storage.get<string>('workbenchCode');
  return (
    <Card
      variant="borderless"
      title={t('shell.workbench')}
      extra={bench ? <span className="shell-secondary">{bench}</span> : null}
    >
      <Shortcuts items={pages} lg={4} />
    </Card>
  );
}

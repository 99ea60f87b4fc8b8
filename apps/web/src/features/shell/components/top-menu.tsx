import type { MenuItem } from '@portal/contracts';
import { Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useLocation, useNavigate } from 'react-router';
import { visibleItems } from '../menu';
import { menuIcon } from './icons';
import { openEntry } from './side-menu';

/**
 * Screen 8: one tab per visible root entry, with icon and title. A root with children becomes the
 * selected root (its children show as sub-directories beside the content); any other navigates,
 * or opens its url in a new window when flagged external.
 */
export function TopMenu({
  menu,
  selected,
  onSelect,
}: {
  menu: MenuItem[];
  selected: string | null;
  onSelect: (rootId: string) => void;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const roots = useMemo(() => visibleItems(menu), [menu]);
  const items: MenuProps['items'] = roots.map((m) => ({ key: m.id, icon: menuIcon(m.meta.icon), label: m.meta.title }));
  return (
    <Menu
      mode="horizontal"
      className="shell-top-menu"
      items={items}
      selectedKeys={selected ? [selected] : []}
      aria-label={t('shell.menu')}
      onClick={({ key }) => {
        const root = roots.find((m) => m.id === key);
        if (!root) return;
        if (root.children?.length) onSelect(root.id);
        else openEntry(root, navigate, location.search);
      }}
    />
  );
}

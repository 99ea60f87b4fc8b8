import type { MenuItem } from '@portal/contracts';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { storage } from '../../../lib/storage';
import { menuPath, openKeysFor, resolveUrl, visibleItems } from '../menu';
import { menuIcon } from './icons';

type Item = Required<MenuProps>['items'][number];

function toItems(items: MenuItem[], depth: number): Item[] {
  return items.map((m) => {
    const children = m.children && m.children.length > 0 ? toItems(m.children, depth + 1) : undefined;
    return {
      key: children ? m.id : menuPath(m),
      icon: depth === 0 ? menuIcon(m.meta.icon) : menuIcon(m.meta.icon, false),
      label: m.meta.title,
      ...(children ? { children } : {}),
    };
  });
}

function byKey(items: MenuItem[], key: string): MenuItem | null {
  for (const m of items) {
    if (menuPath(m) === key && !(m.children && m.children.length)) return m;
    if (m.children) {
      const f = byKey(m.children, key);
      if (f) return f;
    }
  }
  return null;
}

export function SideMenu({
  menu,
  collapsed,
  theme,
}: {
  menu: MenuItem[];
  collapsed: boolean;
  theme: 'dark' | 'light';
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const visible = useMemo(() => visibleItems(menu), [menu]);
  const items = useMemo(() => toItems(visible, 0), [visible]);
  const rootKeys = useMemo(() => new Set(visible.map((m) => m.id)), [visible]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(menu, location.pathname));

  useEffect(() => {
    if (collapsed) setOpenKeys([]);
    else setOpenKeys((keys) => (keys.length ? keys : openKeysFor(menu, location.pathname)));
  }, [collapsed, menu, location.pathname]);

  // Only one top-level submenu stays open (spec §2).
  const onOpenChange: MenuProps['onOpenChange'] = (keys) => {
    const added = keys.find((k) => !openKeys.includes(k));
    const next = added && rootKeys.has(added) ? keys.filter((k) => !rootKeys.has(k) || k === added) : keys;
    setOpenKeys(next);
    storage.set('openKeys', next);
  };

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = byKey(visible, key);
    if (item?.meta.internalOrExternal && item.meta.url) {
      window.open(resolveUrl(item.meta.url, storage.get('workbenchCode')), '_blank', 'noopener,noreferrer');
      return;
    }
    navigate({ pathname: key, search: location.search });
  };

  return (
    <Menu
      mode="inline"
      theme={theme}
      items={items}
      selectedKeys={[location.pathname]}
      openKeys={collapsed ? undefined : openKeys}
      onOpenChange={onOpenChange}
      onClick={onClick}
      aria-label={t('shell.home')}
    />
  );
}

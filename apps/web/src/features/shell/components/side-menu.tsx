import type { MenuItem } from '@portal/contracts';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, type NavigateFunction } from 'react-router';
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

/**
 * The menu tree as an inline side menu (default and phone drawer), or with flyout submenus
 * (`vertical`, the JZH theme). `menu` is the part to show; `whole` the user's menu, for the trail.
 */
/** A leaf entry's click: its url in a new window when flagged external, else its page (spec §2). */
export function openEntry(item: MenuItem, navigate: NavigateFunction, search: string): void {
  if (item.meta.internalOrExternal && item.meta.url) {
    window.open(resolveUrl(item.meta.url, storage.get('workbenchCode')), '_blank', 'noopener,noreferrer');
    return;
  }
  void navigate({ pathname: menuPath(item), search });
}

export function SideMenu({
  menu,
  whole = menu,
  collapsed,
  theme,
  mode = 'inline',
}: {
  /** The entries to show: the whole menu, or a root's children (then `whole` is the whole menu). */
  menu: MenuItem[];
  whole?: MenuItem[];
  collapsed: boolean;
  theme: 'dark' | 'light';
  mode?: 'inline' | 'vertical';
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const visible = useMemo(() => visibleItems(menu), [menu]);
  // Roots always get an icon (a neutral one when meta names none); deeper entries only their own.
  const nested = whole !== menu;
  const items = useMemo(() => toItems(visible, nested ? 1 : 0), [visible, nested]);
  const rootKeys = useMemo(() => new Set(visible.map((m) => m.id)), [visible]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(whole, location.pathname));

  // Collapsing clears the open keys (spec §4); a route change opens the submenus of its entry.
  useEffect(() => {
    if (collapsed) setOpenKeys([]);
    else {
      const trail = openKeysFor(whole, location.pathname);
      setOpenKeys((keys) => (trail.length ? trail : keys));
    }
  }, [collapsed, whole, location.pathname]);

  // Only one top-level submenu stays open (spec §2).
  const onOpenChange: MenuProps['onOpenChange'] = (keys) => {
    const added = keys.find((k) => !openKeys.includes(k));
    const next = added && rootKeys.has(added) ? keys.filter((k) => !rootKeys.has(k) || k === added) : keys;
    setOpenKeys(next);
    storage.set('openKeys', next);
  };

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = byKey(visible, key);
    if (item) openEntry(item, navigate, location.search);
  };

  return (
    <Menu
      mode={mode}
      theme={theme}
      items={items}
      selectedKeys={[location.pathname]}
      openKeys={collapsed || mode === 'vertical' ? undefined : openKeys}
      onOpenChange={onOpenChange}
      onClick={onClick}
      aria-label={t('shell.menu')}
    />
  );
}

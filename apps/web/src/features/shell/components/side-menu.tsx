import type { MenuItem } from '@portal/contracts';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useLocation, useNavigate, type NavigateFunction } from 'react-router';
import { storage } from '../../../lib/storage';
import { menuPath, openKeysFor, resolveUrl, visibleItems } from '../menu';
import { httpUrl } from '../pages';
import { menuIcon } from './icons';

type Item = Required<MenuProps>['items'][number];

/**
 * antd items for `items`. With `open`, a closed submenu gets no children (antd keeps a submenu's
 * items in the page once rendered, so a large menu would otherwise grow with every branch ever
 * opened, and re-render all of it on each route change).
 */
function toItems(items: MenuItem[], depth: number, open: ReadonlySet<string> | null): Item[] {
  // Roots always have an icon (a neutral one when meta names none); deeper entries do when a sibling
  // has one, so that the titles of one level line up.
  const icons = depth === 0 || items.some((m) => menuIcon(m.meta.icon, false) !== null);
  return items.map((m) => {
    const branch = m.children && m.children.length > 0;
    const children = branch ? (open && !open.has(m.id) ? [] : toItems(m.children!, depth + 1, open)) : undefined;
    return {
      key: children ? m.id : menuPath(m),
      icon: menuIcon(m.meta.icon, icons),
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
/** A leaf entry's click: its url in a new window when flagged external, else its page (docs/product/screens.md#menu-and-tabs). */
export function openEntry(item: MenuItem, navigate: NavigateFunction, search: string): void {
  if (item.meta.internalOrExternal) {
    const url = httpUrl(resolveUrl(item.meta.url ?? '', storage.get('workbenchCode')));
    if (url) window.open(url, '_blank', 'noopener,noreferrer');
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
  const nested = whole !== menu;
  const rootKeys = useMemo(() => new Set(visible.map((m) => m.id)), [visible]);
  // The current page's submenus, else the ones open before a reload (kept in storage, docs/product/data.md#local-storage).
  const [openKeys, setOpenKeys] = useState<string[]>(() => {
    const trail = openKeysFor(whole, location.pathname);
    return trail.length ? trail : (storage.get<string[]>('openKeys') ?? []);
  });
  // Open keys are ours only inline and expanded; flyouts (collapsed, JZH) need every item.
  const controlled = mode === 'inline' && !collapsed;
  const items = useMemo(
    () => toItems(visible, nested ? 1 : 0, controlled ? new Set(openKeys) : null),
    [visible, nested, controlled, openKeys],
  );

  // Collapsing clears the open keys (docs/product/behaviour.md#menu-collapse); a route change opens the submenus of its entry.
  useEffect(() => {
    if (collapsed) setOpenKeys([]);
    else {
      // Within the same root the user's open branches stay; another root replaces them (one
      // top-level submenu at a time).
      const trail = openKeysFor(whole, location.pathname);
      setOpenKeys((keys) =>
        !trail.length ? keys : keys.includes(trail[0]!) ? [...new Set([...keys, ...trail])] : trail,
      );
    }
  }, [collapsed, whole, location.pathname]);

  // Only one top-level submenu stays open (docs/product/screens.md#menu-and-tabs).
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
      openKeys={controlled ? openKeys : undefined}
      onOpenChange={onOpenChange}
      onClick={onClick}
      aria-label={t('shell.menu')}
    />
  );
}

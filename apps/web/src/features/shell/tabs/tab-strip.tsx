import { CloseOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useLocation, useNavigate } from 'react-router';
import { LIMITS } from '@portal/contracts';
import { NOT_FOUND_PATH } from '../pages';
import { dispatchTabs, useTabs } from './store';
import { HOME_KEY, tabHref, tabTitle, type Tab, type TabsAction } from './tabs';
import './tab-strip.css';

export const tabId = (key: string) => `tab-${encodeURIComponent(key)}`;
export const panelId = (key: string) => `tabpanel-${encodeURIComponent(key)}`;

type MenuAction = 'refresh' | 'close' | 'closeOthers' | 'closeLeft' | 'closeRight' | 'closeAll';

/**
 * The tab strip (docs/product/screens.md#menu-and-tabs) as a WAI-ARIA tablist: arrow keys, Home and End move the
 * focus, Enter or Space opens, Delete closes; a click opens, a middle click or the cross closes;
 * the context menu refreshes or closes others, left, right or all. Scroll arrows shift the strip
 * by 100 px when it overflows; on touch screens it scrolls by swiping.
 */
export function TabStrip() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tabs, active: activeTab } = useTabs((s) => s.state);
  // On the not-found page no tab is shown, so none is selected, and the last one opens again on a click.
  const notFound = useLocation().pathname === NOT_FOUND_PATH;
  const active = notFound ? null : activeTab;
  const elsewhere = useRef(notFound);
  elsewhere.current = notFound;
  const listRef = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState(false);

  // Callbacks read the store when called, so they stay the same and a switch re-renders two tabs.
  /** Applies an action; when it moved the active tab, opens the new one. */
  const apply = useCallback(
    (action: TabsAction) => {
      const before = useTabs.getState().state.active;
      const next = dispatchTabs(action);
      if (next.active !== before) {
        const tab = next.tabs.find((x) => x.key === next.active)!;
        void navigate(tabHref(tab));
      }
    },
    [navigate],
  );
  // The strip marks the tab at once; the address follows (and confirms it).
  const open = useCallback(
    (tab: Tab) => {
      if (tab.key === useTabs.getState().state.active && !elsewhere.current) return;
      dispatchTabs({ type: 'visit', tab });
      void navigate(tabHref(tab));
    },
    [navigate],
  );
  const onAction = useCallback(
    (action: MenuAction, tab: Tab) => {
      if (action === 'refresh') {
        dispatchTabs({ type: 'refresh', key: tab.key });
        open(tab);
      } else if (action === 'closeAll') apply({ type: 'closeAll' });
      else apply({ type: action, key: tab.key });
    },
    [apply, open],
  );
  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>, index: number) => {
      const all = useTabs.getState().state.tabs;
      const tab = all[index]!;
      let to: number | null = null;
      if (e.key === 'ArrowRight') to = (index + 1) % all.length;
      else if (e.key === 'ArrowLeft') to = (index - 1 + all.length) % all.length;
      else if (e.key === 'Home') to = 0;
      else if (e.key === 'End') to = all.length - 1;
      else if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open(tab);
        return;
      } else if (e.key === 'Delete' && tab.key !== HOME_KEY) {
        e.preventDefault();
        const neighbour = all[index + 1] ?? all[index - 1];
        apply({ type: 'close', key: tab.key });
        if (neighbour) document.getElementById(tabId(neighbour.key))?.focus();
        return;
      }
      if (to !== null) {
        e.preventDefault();
        document.getElementById(tabId(all[to]!.key))?.focus();
      }
    },
    [apply, open],
  );

  // Overflow decides whether the arrows show; the active tab is scrolled into view.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const measure = () => setOverflow(list.scrollWidth > list.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    return () => observer.disconnect();
  }, [tabs.length]);
  useEffect(() => {
    if (active) document.getElementById(tabId(active))?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active]);

  const scroll = (dir: 1 | -1) => listRef.current?.scrollBy({ left: dir * LIMITS.tabScrollStepPx });

  return (
    <div className={`tab-strip${overflow ? ' tab-strip-overflow' : ''}`}>
      {overflow ? (
        <button type="button" className="tab-strip-arrow" aria-label={t('tabs.scrollLeft')} onClick={() => scroll(-1)}>
          <LeftOutlined />
        </button>
      ) : null}
      <div className="tab-strip-list" role="tablist" aria-label={t('tabs.label')} ref={listRef}>
        {tabs.map((tab, index) => (
          <TabItem
            key={tab.key}
            tab={tab}
            index={index}
            count={tabs.length}
            selected={tab.key === active}
            // The one tab the Tab key reaches: the selected one, or home when none is.
            focusable={tab.key === (active ?? HOME_KEY)}
            title={tabTitle(tab, t)}
            onOpen={open}
            onAction={onAction}
            onKeyDown={onKeyDown}
          />
        ))}
      </div>
      {overflow ? (
        <button type="button" className="tab-strip-arrow" aria-label={t('tabs.scrollRight')} onClick={() => scroll(1)}>
          <RightOutlined />
        </button>
      ) : null}
    </div>
  );
}

interface TabItemProps {
  tab: Tab;
  index: number;
  count: number;
  selected: boolean;
  title: string;
  onOpen: (tab: Tab) => void;
  onAction: (action: MenuAction, tab: Tab) => void;
  onKeyDown: (e: KeyboardEvent<HTMLDivElement>, index: number) => void;
  focusable: boolean;
}

/** One tab with its context menu; memoised, since a switch changes only two of them. */
const TabItem = memo(function TabItem({
  tab,
  index,
  count,
  selected,
  focusable,
  title,
  onOpen,
  onAction,
  onKeyDown,
}: TabItemProps) {
  const { t } = useTranslation();
  const home = tab.key === HOME_KEY;
  const menu = useMemo<MenuProps>(() => {
    const items: { key: MenuAction; disabled: boolean }[] = [
      { key: 'refresh', disabled: false },
      { key: 'close', disabled: home },
      { key: 'closeOthers', disabled: count <= (home ? 1 : 2) },
      { key: 'closeLeft', disabled: index <= 1 },
      { key: 'closeRight', disabled: index === count - 1 },
      { key: 'closeAll', disabled: count === 1 },
    ];
    return {
      items: items.map((i) => ({ ...i, label: t(`tabs.${i.key}`) })),
      onClick: ({ key }) => onAction(key as MenuAction, tab),
    };
  }, [home, count, index, t, onAction, tab]);

  return (
    <Dropdown trigger={['contextMenu']} menu={menu}>
      <div
        id={tabId(tab.key)}
        role="tab"
        aria-selected={selected}
        aria-controls={panelId(tab.key)}
        tabIndex={focusable ? 0 : -1}
        className={`tab-strip-tab${selected ? ' tab-strip-tab-active' : ''}`}
        title={title}
        onClick={() => onOpen(tab)}
        onKeyDown={(e) => onKeyDown(e, index)}
        // No focus (and so no scroll into view) on a middle or right press: the scroll would close
        // the context menu that the right button is opening.
        onMouseDown={(e) => e.button !== 0 && e.preventDefault()}
        onAuxClick={(e) => {
          if (e.button === 1 && !home) onAction('close', tab);
        }}
      >
        <span className="tab-strip-title">{title}</span>
        {!home ? (
          <span
            className="tab-strip-close"
            aria-hidden="true"
            onClick={(e) => {
              e.stopPropagation();
              onAction('close', tab);
            }}
          >
            <CloseOutlined />
          </span>
        ) : null}
      </div>
    </Dropdown>
  );
});

import { CloseOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LIMITS } from '@portal/contracts';
import { dispatchTabs, useTabs } from './store';
import { HOME_KEY, tabHref, type Tab, type TabsAction } from './tabs';
import './tab-strip.css';

export const tabId = (key: string) => `tab-${encodeURIComponent(key)}`;
export const panelId = (key: string) => `tabpanel-${encodeURIComponent(key)}`;

type MenuAction = 'refresh' | 'close' | 'closeOthers' | 'closeLeft' | 'closeRight' | 'closeAll';

/**
 * The tab strip (spec §2 menu and tabs) as a WAI-ARIA tablist: arrow keys, Home and End move the
 * focus, Enter or Space opens, Delete closes; a click opens, a middle click or the cross closes;
 * the context menu refreshes or closes others, left, right or all. Scroll arrows shift the strip
 * by 100 px when it overflows; on touch screens it scrolls by swiping.
 */
export function TabStrip() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tabs, active } = useTabs((s) => s.state);
  const listRef = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState(false);

  const title = useCallback((tab: Tab) => tab.title ?? (tab.titleKey ? t(tab.titleKey) : tab.path), [t]);

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
  const open = (tab: Tab) => {
    dispatchTabs({ type: 'visit', tab });
    void navigate(tabHref(tab));
  };

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
    document.getElementById(tabId(active))?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active]);

  const scroll = (dir: 1 | -1) => listRef.current?.scrollBy({ left: dir * LIMITS.tabScrollStepPx });

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>, index: number) => {
    const tab = tabs[index]!;
    let to: number | null = null;
    if (e.key === 'ArrowRight') to = (index + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') to = (index - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = tabs.length - 1;
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(tab);
      return;
    } else if (e.key === 'Delete' && tab.key !== HOME_KEY) {
      e.preventDefault();
      const neighbour = tabs[index + 1] ?? tabs[index - 1];
      apply({ type: 'close', key: tab.key });
      if (neighbour) document.getElementById(tabId(neighbour.key))?.focus();
      return;
    }
    if (to !== null) {
      e.preventDefault();
      document.getElementById(tabId(tabs[to]!.key))?.focus();
    }
  };

  const menuFor = (tab: Tab, index: number): MenuProps => {
    const home = tab.key === HOME_KEY;
    const items: { key: MenuAction; disabled: boolean }[] = [
      { key: 'refresh', disabled: false },
      { key: 'close', disabled: home },
      { key: 'closeOthers', disabled: tabs.length <= (home ? 1 : 2) },
      { key: 'closeLeft', disabled: index <= 1 },
      { key: 'closeRight', disabled: index === tabs.length - 1 },
      { key: 'closeAll', disabled: tabs.length === 1 },
    ];
    return {
      items: items.map((i) => ({ ...i, label: t(`tabs.${i.key}`) })),
      onClick: ({ key }) => {
        const action = key as MenuAction;
        if (action === 'refresh') {
          dispatchTabs({ type: 'refresh', key: tab.key });
          if (tab.key !== active) open(tab);
        } else if (action === 'closeAll') apply({ type: 'closeAll' });
        else apply({ type: action, key: tab.key });
      },
    };
  };

  return (
    <div className={`tab-strip${overflow ? ' tab-strip-overflow' : ''}`}>
      {overflow ? (
        <button type="button" className="tab-strip-arrow" aria-label={t('tabs.scrollLeft')} onClick={() => scroll(-1)}>
          <LeftOutlined />
        </button>
      ) : null}
      <div className="tab-strip-list" role="tablist" aria-label={t('tabs.label')} ref={listRef}>
        {tabs.map((tab, index) => {
          const selected = tab.key === active;
          return (
            <Dropdown key={tab.key} trigger={['contextMenu']} menu={menuFor(tab, index)}>
              <div
                id={tabId(tab.key)}
                role="tab"
                aria-selected={selected}
                aria-controls={panelId(tab.key)}
                tabIndex={selected ? 0 : -1}
                className={`tab-strip-tab${selected ? ' tab-strip-tab-active' : ''}`}
                title={title(tab)}
                onClick={() => open(tab)}
                onKeyDown={(e) => onKeyDown(e, index)}
                onMouseDown={(e) => e.button === 1 && e.preventDefault()}
                onAuxClick={(e) => {
                  if (e.button === 1 && tab.key !== HOME_KEY) apply({ type: 'close', key: tab.key });
                }}
              >
                <span className="tab-strip-title">{title(tab)}</span>
                {tab.key !== HOME_KEY ? (
                  <span
                    className="tab-strip-close"
                    aria-hidden="true"
                    onClick={(e) => {
                      e.stopPropagation();
                      apply({ type: 'close', key: tab.key });
                    }}
                  >
                    <CloseOutlined />
                  </span>
                ) : null}
              </div>
            </Dropdown>
          );
        })}
      </div>
      {overflow ? (
        <button type="button" className="tab-strip-arrow" aria-label={t('tabs.scrollRight')} onClick={() => scroll(1)}>
          <RightOutlined />
        </button>
      ) : null}
    </div>
  );
}

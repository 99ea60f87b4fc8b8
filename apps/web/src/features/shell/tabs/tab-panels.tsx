import { Activity, memo, useMemo, type ReactNode } from 'react';
import { useRoutes } from 'react-router';
import { runtimeConfig } from '../../../lib/config';
import { useTabs } from './store';
import { panelId, tabId } from './tab-strip';
import { aliveKeys, type Tab } from './tabs';

/**
 * The tabs' pages: the active one shown, and the hidden ones that keep-alive keeps rendered but
 * hidden by `<Activity>` (state, scroll position and frames stay; effects pause). Each page sees
 * its own tab's address. A refreshed tab (new version) is built anew; a closed or evicted one is
 * freed.
 */
export function TabPanels({
  render,
  bare = false,
  shown = true,
}: {
  render: (tab: Tab) => ReactNode;
  bare?: boolean;
  /** False while the shell shows something else (a not-found address): every page kept, none shown. */
  shown?: boolean;
}) {
  const { state, recent } = useTabs();
  const max = runtimeConfig().keepAliveMax;
  const alive = useMemo(() => aliveKeys(state, recent, max), [state, recent, max]);
  return state.tabs
    .filter((tab) => alive.has(tab.key))
    .map((tab) => (
      <TabPanel
        key={`${tab.key}\n${tab.version}`}
        tab={tab}
        visible={shown && tab.key === state.active}
        bare={bare}
        render={render}
      />
    ));
}

/** One page; memoised, so a switch re-renders only the two whose visibility changed. */
const TabPanel = memo(function TabPanel({
  tab,
  visible,
  bare,
  render,
}: {
  tab: Tab;
  visible: boolean;
  bare: boolean;
  render: (tab: Tab) => ReactNode;
}) {
  return (
    <Activity mode={visible ? 'visible' : 'hidden'}>
      <div
        id={panelId(tab.key)}
        className="tab-panel"
        // Without the strip (iframe=1) there is no tab to label the panel.
        {...(bare ? {} : { role: 'tabpanel', 'aria-labelledby': tabId(tab.key) })}
      >
        <AtAddress tab={tab} render={render} />
      </div>
    </Activity>
  );
});

/** Gives the page its tab's address, so a hidden page never reads the visible one's. */
function AtAddress({ tab, render }: { tab: Tab; render: (tab: Tab) => ReactNode }) {
  return useRoutes([{ path: '*', element: render(tab) }], { pathname: tab.path, search: tab.search });
}

/**
 * My workbench (docs/product/screens.md#fixed-routes /workStand, ADR 028): shortcuts, unread notices, my enterprises, recently
 * used pages and the park's open alerts, on a grid each user arranges (drag, resize, hide, show)
 * and keeps: saved per user and tenant.
 */
import '../messages';
import type { WorkbenchLayout, WorkbenchWidget } from '@portal/contracts';
import { CloseOutlined, EditOutlined, PlusOutlined, RollbackOutlined, SaveOutlined } from '@ant-design/icons';
import { Button, Card, Dropdown, Grid, Select, Skeleton, Space, Typography, message } from 'antd';
import { useState, type ReactNode } from 'react';
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { saveLayout, useSavedLayout } from '../api/workbench';
import {
  DEFAULT_LAYOUT,
  hidden,
  itemsOf,
  MAX_SHORTCUTS,
  pickShortcuts,
  resetLayout,
  shortcutMatches,
  show,
  shownShortcuts,
  type Item,
} from './layout';
import { MyAlerts, MyEnterprises, RecentPages, UnreadNotices, type PageLink } from './widgets';
import './workbench.css';

const ROW_HEIGHT = 40;
const GAP = 16;

/** What the shell gives the workbench (its ShellViews.workbench props, the same shape). */
export interface WorkbenchProps {
  pages: PageLink[];
  recent: PageLink[];
  shortcuts: (paths: string[]) => ReactNode;
}

export function Workbench({ pages, recent, shortcuts }: WorkbenchProps) {
  const { t } = useTranslation();
  const saved = useSavedLayout();
  const client = useQueryClient();
  const phone = Grid.useBreakpoint().md === false;
  const { width, containerRef, mounted } = useContainerWidth();
  const [draft, setDraft] = useState<WorkbenchLayout | null>(null);
  const [busy, setBusy] = useState(false);
  const layout = draft ?? saved.data ?? DEFAULT_LAYOUT;
  const editing = draft !== null;
  const shown = shownShortcuts(layout, pages);

  async function keep() {
    if (!draft) return;
    setBusy(true);
    try {
      await saveLayout(draft);
      client.setQueryData(['workbench-layout'], draft);
      setDraft(null);
      void message.success(t('workbench.saved'));
    } catch {
      void message.error(t('workbench.saveFailed'));
    } finally {
      setBusy(false);
    }
  }

  const body: Record<WorkbenchWidget, ReactNode> = {
    shortcuts: editing ? (
      <Select
        mode="multiple"
        className="wb-shortcut-picker"
        aria-label={t('workbench.pickShortcuts')}
        placeholder={t('workbench.pickShortcuts')}
        // The picker starts with what is shown (the first pages until the user picks their own).
        value={shown}
        maxCount={MAX_SHORTCUTS}
        options={pages.map((l) => ({ value: l.path, label: l.title }))}
        // Typed text finds a page by its name as well as by its address.
        filterOption={(input, option) =>
          shortcutMatches(input, option ? { path: option.value, title: option.label } : undefined)
        }
        onChange={(paths: string[]) => setDraft(pickShortcuts(layout, pages, paths))}
      />
    ) : (
      shortcuts(shown)
    ),
    notices: <UnreadNotices />,
    enterprises: <MyEnterprises />,
    recent: <RecentPages items={recent} />,
    alerts: <MyAlerts />,
  };
  const card = (item: Item) => (
    <Card
      className="wb-card"
      size="small"
      title={<span className={editing ? 'wb-handle' : undefined}>{t(`workbench.widgets.${item.i}`)}</span>}
      extra={
        editing ? (
          <Button
            type="text"
            size="small"
            className="wb-hide"
            icon={<CloseOutlined />}
            aria-label={t('workbench.hide', { name: t(`workbench.widgets.${item.i}`) })}
            onClick={() => setDraft({ ...layout, items: layout.items.filter((x) => x.i !== item.i) })}
          />
        ) : null
      }
    >
      {body[item.i]}
    </Card>
  );

  const toolbar = editing ? (
    <Space wrap>
      <Dropdown
        disabled={hidden(layout.items).length === 0}
        menu={{
          items: hidden(layout.items).map((w) => ({ key: w, label: t(`workbench.widgets.${w}`) })),
          onClick: ({ key }) => setDraft({ ...layout, items: show(layout.items, key as WorkbenchWidget) }),
        }}
      >
        <Button icon={<PlusOutlined />}>{t('workbench.addWidget')}</Button>
      </Dropdown>
      <Button icon={<RollbackOutlined />} onClick={() => setDraft(resetLayout(layout, pages))}>
        {t('workbench.reset')}
      </Button>
      <Button onClick={() => setDraft(null)}>{t('workbench.cancel')}</Button>
      <Button type="primary" icon={<SaveOutlined />} loading={busy} onClick={() => void keep()}>
        {t('workbench.save')}
      </Button>
    </Space>
  ) : (
    <Button icon={<EditOutlined />} onClick={() => setDraft(layout)}>
      {t('workbench.arrange')}
    </Button>
  );

  return (
    <div className="wb">
      <div className="wb-head">
        <Typography.Title level={4} className="wb-title">
          {t('shell.workbench')}
        </Typography.Title>
        {phone ? null : toolbar}
      </div>
      {saved.isPending ? <Skeleton active /> : null}
      {!saved.isPending && phone ? (
        <div className="wb-column">
          {[...layout.items]
            .sort((a, b) => a.y - b.y || a.x - b.x)
            .map((item) => (
              <div key={item.i}>{card(item)}</div>
            ))}
        </div>
      ) : null}
      <div ref={containerRef} className={editing ? 'wb-grid wb-editing' : 'wb-grid'} hidden={saved.isPending || phone}>
        {mounted && !saved.isPending && !phone ? (
          <ReactGridLayout
            width={width}
            layout={layout.items.map((i) => ({ ...i, minW: 3, minH: 3 }))}
            gridConfig={{ cols: 12, rowHeight: ROW_HEIGHT, margin: [GAP, GAP], containerPadding: [0, 0] }}
            dragConfig={{ enabled: editing, handle: '.wb-handle' }}
            resizeConfig={{ enabled: editing, handles: ['se'] }}
            compactor={verticalCompactor}
            onLayoutChange={(next: Layout) => {
              if (editing) setDraft((d) => (d ? { ...d, items: itemsOf(next) } : d));
            }}
          >
            {layout.items.map((item) => (
              <div key={item.i} data-widget={item.i}>
                {card(item)}
              </div>
            ))}
          </ReactGridLayout>
        ) : null}
      </div>
    </div>
  );
}

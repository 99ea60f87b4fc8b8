import { ExportOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Empty } from 'antd';
import { Result } from '../../../components/lazy-result';
import { useContext } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { frameSandbox } from '../../../lib/frames';
import { useSession } from '../../../lib/session';
import { findByPath, menuPath, NO_ITEMS } from '../menu';
import { detailUrl, type Page } from '../pages';
import type { Tab } from '../tabs/tabs';
import { usePageContext } from '../use-page-context';
import { ShellViewsContext } from '../views';
import { HomePage } from './home-page';
import { Panel } from './panel';
import { WorkbenchPage } from './workbench-page';

/** The page a tab shows, by kind (docs/product/screens.md#menu-and-tabs). */
export function PageView({ page, tab }: { page: Page; tab: Tab }) {
  switch (page.kind) {
    case 'home':
      return <HomePage />;
    case 'workbench':
      return <WorkbenchPage />;
    case 'security':
      return <SecurityPage />;
    case 'iframe':
      return <Frame title={page.title ?? ''} src={page.url} refused={page.refused} />;
    case 'micro':
      // The micro-app layer beside the tab panels shows it: a container that hiding must not destroy.
      return null;
    case 'detail':
      return <DetailPage tab={tab} />;
    case 'external':
      return <ExternalPage page={page} />;
    case 'drag':
      return <DragView page={page} />;
    case 'view':
      return <ViewPage page={page} />;
  }
}

/**
 * An embedded page, in the portal's one frame sandbox (lib/frames). It stays mounted while its tab
 * is hidden, so switching back does not reload it.
 */
function Frame({ title, src, refused }: { title: string; src: string | null; refused: string | null }) {
  const { t } = useTranslation();
  if (refused) {
    return (
      <Result
        status="warning"
        title={t('shell.frameRefused')}
        subTitle={t('shell.frameRefusedHint', { origin: refused })}
      />
    );
  }
  if (!src) return <Result status="warning" title={t('shell.pageUnavailable')} />;
  return (
    <iframe
      title={title}
      src={src}
      className="page-frame"
      sandbox={frameSandbox(src)}
      referrerPolicy="strict-origin-when-cross-origin"
    />
  );
}

function DetailPage({ tab }: { tab: Tab }) {
  const { t } = useTranslation();
  const { url, refused } = detailUrl(tab.search, usePageContext());
  return <Frame title={tab.titleKey ? t(tab.titleKey) : ''} src={url} refused={refused} />;
}

function ExternalPage({ page }: { page: Page }) {
  const { t } = useTranslation();
  return (
    <Result
      status="info"
      title={page.title}
      subTitle={t('shell.externalHint')}
      extra={
        <Button
          type="primary"
          icon={<ExportOutlined />}
          href={page.url ?? undefined}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('shell.openExternal')}
        </Button>
      }
    />
  );
}

/** A drag-page view, rendered by the feature the app wired in; without one, like a plain view. */
function DragView({ page }: { page: Page }) {
  const { dragPage } = useContext(ShellViewsContext);
  const pageId = page.item?.meta.pageId;
  return dragPage && pageId ? <>{dragPage(pageId)}</> : <ViewPage page={page} />;
}

/** 账户安全: its title, then what the app composes of the features' sections. */
function SecurityPage() {
  const { t } = useTranslation();
  const { accountSecurity } = useContext(ShellViewsContext);
  return (
    <Panel>
      <h4 className="shell-title shell-title-4">{t('shell.accountSecurity')}</h4>
      {accountSecurity?.() ?? <Empty description={t('shell.pageEmpty')} />}
    </Panel>
  );
}

/**
 * A menu entry's own page: its trail and title, then the business page its component names.
 * Those pages arrive with their features; until one exists the frame says so.
 */
function ViewPage({ page }: { page: Page }) {
  const { t } = useTranslation();
  const { businessPage } = useContext(ShellViewsContext);
  const own = page.item ? businessPage?.(page.item.component) : null;
  const menu = useSession((s) => s.menu?.menu ?? NO_ITEMS);
  const trail = page.item ? (findByPath(menu, menuPath(page.item))?.trail ?? [page.item]) : [];
  return (
    <Panel>
      <Breadcrumb items={trail.map((m) => ({ title: m.meta.title }))} />
      <h4 className="shell-title shell-title-4">{page.title}</h4>
      {own ?? <Empty description={t('shell.pageEmpty')} />}
    </Panel>
  );
}

import { Suspense, useMemo, type ComponentType } from 'react';
import { useNavigate } from 'react-router';
import { signOut } from '../../features/auth/api/logout';
import { BasicLayout } from '../../features/shell/components/basic-layout';
import { pathContaining } from '../../features/shell/menu';
import { clearTabs } from '../../features/shell/tabs/store';
import { ShellViewsContext, type ShellViews } from '../../features/shell/views';
import { useAccountMenu, type ShellHooks } from '../../features/switching/components/user-menu';
import { useSession } from '../../lib/session';
import { NoticeBell } from '../../features/notices/components/notice-bell';
import { runtimeConfig } from '../../lib/config';
import { LanguageToggle } from '../language-toggle';
import { load } from '../load';

// The host of sub-applications loads when the first page of one is opened (ADR 025).
const MicroAppLayer = load(() => import('../../features/micro-apps/components/micro-app-layer'), 'MicroAppLayer');

// Drag pages load with the first one opened (their widgets bring grids, lists and, lazily, charts).
const DragPage = load(() => import('../../features/drag-page/view/drag-page'), 'DragPage');
// My workbench (/workStand): its grid of widgets loads when it is first opened.
const Workbench = load(() => import('../../features/workbench/components/workbench'), 'Workbench');
// A page of another application (my workbench elsewhere): which one, and the switch to it.
const ApplicationElsewhere = load(
  () => import('../../features/switching/components/application-elsewhere'),
  'ApplicationElsewhere',
);

// 账户安全: its sections load when the page is first opened.
const AccountSecurity = load(() => import('./account-security'), 'AccountSecurity');

// Business pages by the menu component that names them, each loaded when first opened.
const BUSINESS_PAGES: Record<string, ComponentType> = {
  'ent/colist': load(() => import('../../features/enterprise/components/enterprise-info-page'), 'EnterpriseInfoPage'),
  'ent/members/list': load(() => import('../../features/enterprise/components/members-page'), 'MembersPage'),
  'ent/members/invite': load(() => import('../../features/invitations/components/invite-page'), 'InvitePage'),
  'message/index': load(() => import('../../features/notices/components/message-page'), 'MessagePage'),
  // The drag-page builder (docs/product/screens.md#lazy-pages), for operators with page:design.
  'page/builder': load(() => import('../../features/drag-page/builder/page-builder'), 'PageBuilder'),
  // The operators' console (ADR 031): one chunk per page, for roles with system:manage.
  'admin/users': load(() => import('../../features/admin/users/users-page'), 'UsersPage'),
  'admin/roles': load(() => import('../../features/admin/roles/roles-page'), 'RolesPage'),
  'admin/menus': load(() => import('../../features/admin/menus/menus-page'), 'MenusPage'),
  'admin/enterprises': load(() => import('../../features/admin/enterprises/enterprises-page'), 'EnterprisesPage'),
  // 通知公告: publishing, recipients and withdrawal, for roles with notice:publish.
  'admin/notices': load(() => import('../../features/admin/notices/notices-page'), 'NoticesPage'),
  'admin/directory': load(() => import('../../features/admin/directory/directory-page'), 'DirectoryPage'),
  'admin/sign-on': load(() => import('../../features/admin/sign-on/sign-on-page'), 'SignOnPage'),
  'admin/oidc-clients': load(() => import('../../features/admin/oidc-clients/oidc-clients-page'), 'OidcClientsPage'),
  'admin/settings': load(() => import('../../features/admin/settings/settings-page'), 'SettingsPage'),
  'admin/sms': load(() => import('../../features/admin/sms/sms-page'), 'SmsPage'),
  'admin/audit': load(() => import('../../features/admin/audit/audit-page'), 'AuditPage'),
  'admin/online-users': load(() => import('../../features/admin/online-users/online-users-page'), 'OnlineUsersPage'),
  'admin/login-history': load(
    () => import('../../features/admin/login-history/login-history-page'),
    'LoginHistoryPage',
  ),
  'admin/tenants': load(() => import('../../features/admin/tenants/tenants-page'), 'TenantsPage'),
};

const views: ShellViews = {
  dragPage: (code) => (
    <Suspense>
      <DragPage code={code} />
    </Suspense>
  ),
  workbench: (props) => (
    <Suspense>
      <Workbench {...props} />
    </Suspense>
  ),
  accountSecurity: () => (
    <Suspense>
      <AccountSecurity />
    </Suspense>
  ),
  otherApplication: (appCode) => (
    <Suspense>
      <ApplicationElsewhere appCode={appCode} />
    </Suspense>
  ),
  businessPage: (component) => {
    const Page = BUSINESS_PAGES[component.replace(/^\//, '')];
    return Page ? (
      <Suspense>
        <Page />
      </Suspense>
    ) : null;
  },
};

const shellHooks: ShellHooks = {
  clearTabs,
  menuPathContaining: (fragment) => pathContaining(useSession.getState().menu?.menu ?? [], fragment),
};

export function LayoutRoute() {
  const account = useAccountMenu(shellHooks);
  const navigate = useNavigate();
  const shellViews = useMemo<ShellViews>(
    () => ({
      ...views,
      subApps: (state) => (
        <Suspense>
          <MicroAppLayer
            {...state}
            services={{
              // A page opened by a sub-application: a tab of its own, titled as the app asks.
              navigate: (path, title) => void navigate(path, { state: title ? { tabTitle: title } : null }),
              logout: () => void signOut(),
            }}
          />
        </Suspense>
      ),
    }),
    [navigate],
  );
  return (
    <ShellViewsContext.Provider value={shellViews}>
      <BasicLayout
        onLogout={() => void signOut()}
        userMenu={account.menu}
        headerExtra={<LanguageToggle reload />}
        // docs/product/overview.md#runtime-switches: the notice feature is off unless configured; the header guards it by messageIndex.
        bell={runtimeConfig().noticeEnabled ? <NoticeBell /> : undefined}
      />
      {account.dialogs}
    </ShellViewsContext.Provider>
  );
}

export { ShellContent } from '../../features/shell/components/shell-content';

import {
  DesktopOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  HomeOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, Layout, Tooltip } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useLocation, useNavigate } from 'react-router';
import type { SubManagement } from '@portal/contracts';
import { request } from '../../../lib/api/client';
import { runtimeConfig } from '../../../lib/config';
import { toast } from '../../../lib/feedback';
import { Authorized } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';
import { httpUrl, WORKBENCH_APP } from '../pages';
import type { LayoutTheme } from '../theme';
import { usePageContext } from '../use-page-context';

export interface ShellHeaderProps {
  brand?: ReactNode;
  nav?: ReactNode;
  collapsed: boolean;
  /** Absent when there is no menu to collapse (top theme without sub-directories). */
  onToggle?: () => void;
  onLogout: () => void;
  /** Entries of the user drop-down before logout (the account dialogs, composed by the app). */
  userMenu?: { items: { key: string; icon: ReactNode; label: string }[]; onSelect: (key: string) => void };
  extra?: ReactNode;
  bell?: ReactNode;
  site: string;
  phone: boolean;
  theme: LayoutTheme;
}

/**
 * Screen 4: menu collapse toggle, optional back-to-portal link, the notice bell's place (permission
 * messageIndex), group name, fullscreen toggle and the user drop-down with logout.
 */
export function ShellHeader(props: ShellHeaderProps) {
  const { brand, nav, collapsed, onToggle, onLogout, userMenu, extra, bell, site, phone, theme } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const userInfo = useSession((s) => s.userInfo);
  const ctx = usePageContext();
  const cfg = runtimeConfig();
  const [fullscreen, setFullscreen] = useState(false);

  useEffect(() => {
    const onChange = () => setFullscreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.();
  };

  // The configured address, else the tenant's own home page (getDefaultSubManList's homeUrl); docs/product/errors.md#header:
  // with neither, the link warns 园区首页地址未配置！ instead of going nowhere.
  const backToPortal = async () => {
    const home =
      httpUrl(cfg.domianURL) ??
      httpUrl(
        (
          await request<SubManagement>('/api/front/subsystemManagement/getDefaultSubManList', {
            failures: { handledBy: 'back-to-portal' },
          }).catch(() => null)
        )?.homeUrl,
      );
    if (home) window.location.assign(home);
    else toast('warning', t('shell.portalUnset'));
  };

  return (
    <Layout.Header className="shell-header">
      {brand}
      {onToggle ? (
        <Button
          type="text"
          aria-label={collapsed ? t('shell.expand') : t('shell.collapse')}
          aria-expanded={!collapsed}
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggle}
        />
      ) : null}
      {/* On a phone the site's name takes the free space (the menu is a drawer); else the top menu does. */}
      {phone ? <span className="shell-header-title">{site}</span> : <div className="shell-header-nav">{nav}</div>}
      <div className="shell-header-right">
        {theme === 'jzh' && ctx.appCode === WORKBENCH_APP ? (
          <Button
            type="text"
            icon={<DesktopOutlined />}
            aria-label={t('shell.workbench')}
            onClick={() => void navigate({ pathname: '/workStand', search: location.search })}
          >
            {phone ? null : t('shell.workbench')}
          </Button>
        ) : null}
        {cfg.homePortalLink ? (
          <Button
            type="text"
            icon={<HomeOutlined />}
            onClick={() => void backToPortal()}
            aria-label={t('shell.backToPortal')}
          >
            {phone ? null : t('shell.backToPortal')}
          </Button>
        ) : null}
        {userInfo?.groupName && !phone ? (
          <span className="shell-group" title={t('shell.group')}>
            {userInfo.groupName}
          </span>
        ) : null}
        {bell ? <Authorized code="messageIndex">{bell}</Authorized> : null}
        {extra}
        {!phone ? (
          <Tooltip title={fullscreen ? t('shell.exitFullscreen') : t('shell.fullscreen')}>
            <Button
              type="text"
              aria-label={fullscreen ? t('shell.exitFullscreen') : t('shell.fullscreen')}
              icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              onClick={toggleFullscreen}
            />
          </Tooltip>
        ) : null}
        <Dropdown
          menu={{
            items: [
              ...(userMenu?.items ?? []),
              ...(userMenu?.items.length ? [{ type: 'divider' as const }] : []),
              { key: 'logout', icon: <LogoutOutlined />, label: t('shell.logout') },
            ],
            onClick: ({ key }) => (key === 'logout' ? onLogout() : userMenu?.onSelect(key)),
          }}
          placement="bottomRight"
          trigger={['click']}
        >
          <button
            type="button"
            className="shell-user"
            aria-haspopup="menu"
            aria-label={userInfo?.name ?? t('shell.account')}
          >
            <Avatar size="small" src={userInfo?.image || undefined} icon={<UserOutlined />} />
            <span className="shell-user-name">{userInfo?.name}</span>
          </button>
        </Dropdown>
      </div>
    </Layout.Header>
  );
}

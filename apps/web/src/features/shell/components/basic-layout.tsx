import {
  FullscreenExitOutlined,
  FullscreenOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Drawer, Dropdown, Grid, Layout, Space, Tooltip, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { runtimeConfig } from '../../../lib/config';
import { useSession } from '../../../lib/session';
import { SideMenu } from './side-menu';
import './basic-layout.css';

export interface BasicLayoutProps {
  onLogout: () => void;
  headerExtra?: ReactNode;
}

/** Logo and site name, side menu, header, content and a sticky footer (spec §2 screen 3). */
export function BasicLayout({ onLogout, headerExtra }: BasicLayoutProps) {
  const { t } = useTranslation();
  const { userInfo, menu } = useSession();
  const screens = Grid.useBreakpoint();
  const phone = screens.md === false;
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const location = useLocation();
  const cfg = runtimeConfig();
  const site = cfg.siteName || t('app.siteName');

  useEffect(() => setDrawerOpen(false), [location.pathname]);
  useEffect(() => {
    const onChange = () => setFullscreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.();
  };

  const brand = (
    <Link to={{ pathname: '/index', search: location.search }} className="shell-brand">
      {cfg.logo ? <img src={cfg.logo} alt="" /> : <span className="shell-brand-mark" aria-hidden="true" />}
      {!collapsed || phone ? <span className="shell-brand-name">{site}</span> : null}
    </Link>
  );
  const sideMenu = <SideMenu menu={menu?.menu ?? []} collapsed={collapsed && !phone} theme="dark" />;

  return (
    <Layout className="shell">
      {phone ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          width={256}
          styles={{ body: { padding: 0, background: '#001529' }, header: { display: 'none' } }}
        >
          {brand}
          {sideMenu}
        </Drawer>
      ) : (
        <Layout.Sider width={232} collapsible collapsed={collapsed} trigger={null} className="shell-sider">
          {brand}
          {sideMenu}
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header className="shell-header">
          <Button
            type="text"
            aria-label={collapsed || phone ? t('shell.expand') : t('shell.collapse')}
            icon={collapsed || phone ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={() => (phone ? setDrawerOpen(true) : setCollapsed((c) => !c))}
          />
          {phone ? <span className="shell-header-title">{site}</span> : null}
          <Space size="middle" className="shell-header-right">
            {userInfo?.groupName && !phone ? (
              <Typography.Text type="secondary" className="shell-group" title={t('shell.group')}>
                {userInfo.groupName}
              </Typography.Text>
            ) : null}
            {headerExtra}
            {!phone ? (
              <Tooltip title={fullscreen ? 'Esc' : undefined}>
                <Button
                  type="text"
                  aria-label="fullscreen"
                  icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
                  onClick={toggleFullscreen}
                />
              </Tooltip>
            ) : null}
            <Dropdown
              menu={{
                items: [{ key: 'logout', icon: <LogoutOutlined />, label: t('shell.logout') }],
                onClick: ({ key }) => key === 'logout' && onLogout(),
              }}
              placement="bottomRight"
            >
              <button type="button" className="shell-user" aria-label={userInfo?.name ?? ''}>
                <Avatar size="small" src={userInfo?.image || undefined} icon={<UserOutlined />} />
                <span className="shell-user-name">{userInfo?.name}</span>
              </button>
            </Dropdown>
          </Space>
        </Layout.Header>
        <Layout.Content className="shell-content">
          <Outlet />
        </Layout.Content>
        <Layout.Footer className="shell-footer">
          {t('app.footer', { year: new Date().getFullYear(), site })}
        </Layout.Footer>
      </Layout>
    </Layout>
  );
}

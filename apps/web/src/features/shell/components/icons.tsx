import {
  AppstoreOutlined,
  BankOutlined,
  BellOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DesktopOutlined,
  FileOutlined,
  FormOutlined,
  HomeOutlined,
  IdcardOutlined,
  LinkOutlined,
  ReadOutlined,
  ShopOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Icons a menu entry may name in meta.icon; an unknown name gets the neutral file icon. */
const ICONS: Record<string, ReactNode> = {
  AppstoreOutlined: <AppstoreOutlined />,
  BankOutlined: <BankOutlined />,
  BellOutlined: <BellOutlined />,
  ClusterOutlined: <ClusterOutlined />,
  DashboardOutlined: <DashboardOutlined />,
  DesktopOutlined: <DesktopOutlined />,
  FormOutlined: <FormOutlined />,
  HomeOutlined: <HomeOutlined />,
  IdcardOutlined: <IdcardOutlined />,
  LinkOutlined: <LinkOutlined />,
  ReadOutlined: <ReadOutlined />,
  ShopOutlined: <ShopOutlined />,
  TeamOutlined: <TeamOutlined />,
  /** The workbench's own icon name (spec §2 /workStand). */
  workbenchHomepage: <DesktopOutlined />,
};

export function menuIcon(name: string | null | undefined, fallback = true): ReactNode {
  if (name && ICONS[name]) return ICONS[name];
  return fallback ? <FileOutlined /> : null;
}

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
import { lazy, Suspense, type ReactNode } from 'react';
import { MORE_ICONS, type MoreIconName } from './more-icon-names';

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
  /** The workbench's own icon name (docs/product/screens.md#fixed-routes /workStand). */
  workbenchHomepage: <DesktopOutlined />,
};

const isMore = (name: string): name is MoreIconName => (MORE_ICONS as readonly string[]).includes(name);
const MoreIcon = lazy(() => import('./more-icons').then((m) => ({ default: m.MoreIcon })));

export function menuIcon(name: string | null | undefined, fallback = true): ReactNode {
  if (name && ICONS[name]) return ICONS[name];
  if (name && isMore(name)) return <LazyIcon name={name} fallback={fallback} />;
  return fallback ? <FileOutlined /> : null;
}

/** Takes the class antd's menu gives its icons (it clones the icon element with one). */
function LazyIcon({ name, fallback, className }: { name: MoreIconName; fallback: boolean; className?: string }) {
  return (
    <Suspense fallback={fallback ? <FileOutlined className={className} /> : null}>
      <MoreIcon name={name} className={className} />
    </Suspense>
  );
}

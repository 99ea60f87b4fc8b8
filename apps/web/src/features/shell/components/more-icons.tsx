/** The menu icons of MORE_ICONS (more-icon-names.ts), in a chunk of their own. */
import {
  ApartmentOutlined,
  AuditOutlined,
  ControlOutlined,
  FileSearchOutlined,
  HistoryOutlined,
  KeyOutlined,
  LoginOutlined,
  MenuOutlined,
  MessageOutlined,
  NotificationOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';
import type { MoreIconName } from './more-icon-names';

const ICONS: Record<MoreIconName, ComponentType> = {
  ApartmentOutlined,
  AuditOutlined,
  ControlOutlined,
  FileSearchOutlined,
  HistoryOutlined,
  KeyOutlined,
  LoginOutlined,
  MenuOutlined,
  MessageOutlined,
  NotificationOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  UserOutlined,
};

export function MoreIcon({ name, className }: { name: MoreIconName; className?: string | undefined }) {
  const Icon = ICONS[name] as ComponentType<{ className?: string | undefined }>;
  return <Icon className={className} />;
}

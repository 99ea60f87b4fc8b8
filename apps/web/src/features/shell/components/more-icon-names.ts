/**
 * Icons of entries most users never see (the operators' console): drawn by a chunk of their own
 * (more-icons.tsx), loaded when a menu names one, so the first screen of everyone else does not
 * carry them. Apart from icons.tsx, which loads that chunk, so that the chunk's import of these
 * names makes no cycle.
 */
export const MORE_ICONS = [
  'ApartmentOutlined',
  'AuditOutlined',
  'ControlOutlined',
  'FileSearchOutlined',
  'HistoryOutlined',
  'KeyOutlined',
  'LoginOutlined',
  'MenuOutlined',
  'MessageOutlined',
  'NotificationOutlined',
  'SafetyCertificateOutlined',
  'SettingOutlined',
  'UserOutlined',
] as const;
export type MoreIconName = (typeof MORE_ICONS)[number];

import { Drawer } from 'antd';
import type { ReactNode } from 'react';

/** The menu below 768 px: a drawer from the left (loaded when first opened, see BasicLayout). */
export function MenuDrawer({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      width={256}
      title={title}
      styles={{ body: { padding: 0, background: '#001529' }, header: { display: 'none' } }}
    >
      {children}
    </Drawer>
  );
}

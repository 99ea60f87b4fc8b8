import type { MenuItem } from '@portal/contracts';
import { Col, Empty, Row } from 'antd';
import { Link, useLocation } from 'react-router';
import { menuPath } from '../menu';
import { menuIcon } from './icons';
import './home-page.css';

/** Menu pages as a grid of icon links (home page, workbench), or an empty note. */
export function Shortcuts({ items, lg }: { items: MenuItem[]; lg?: number }) {
  const location = useLocation();
  if (items.length === 0) return <Empty />;
  return (
    <Row gutter={[16, 16]}>
      {items.map((i) => (
        <Col key={i.id} xs={12} sm={8} md={6} lg={lg}>
          <Link className="home-shortcut" to={{ pathname: menuPath(i), search: location.search }}>
            <span className="home-shortcut-icon">{menuIcon(i.meta.icon)}</span>
            <span>{i.meta.title}</span>
          </Link>
        </Col>
      ))}
    </Row>
  );
}

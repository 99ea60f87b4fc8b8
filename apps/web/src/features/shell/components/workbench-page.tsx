import { Card, Col, Empty, Row, Typography } from 'antd';
import { useTranslation } from '../../../lib/i18n';
import { Link, useLocation } from 'react-router';
import { useSession } from '../../../lib/session';
import { storage } from '../../../lib/storage';
import { leafItems, menuPath, NO_ITEMS } from '../menu';
import { menuIcon } from './icons';
import './home-page.css';

/** /workStand, my workbench (JZH theme, ENT_WORKBENCH application): the workbench's pages at hand. */
export function WorkbenchPage() {
  const { t } = useTranslation();
  const menu = useSession((s) => s.menu?.menu ?? NO_ITEMS);
  const location = useLocation();
  const pages = leafItems(menu).filter((i) => !i.meta.internalOrExternal);
  const bench = storage.get<string>('workbenchCode');
  return (
    <Card
      variant="borderless"
      title={t('shell.workbench')}
      extra={bench ? <Typography.Text type="secondary">{bench}</Typography.Text> : null}
    >
      {pages.length === 0 ? (
        <Empty />
      ) : (
        <Row gutter={[16, 16]}>
          {pages.map((i) => (
            <Col key={i.id} xs={12} sm={8} md={6} lg={4}>
              <Link className="home-shortcut" to={{ pathname: menuPath(i), search: location.search }}>
                <span className="home-shortcut-icon">{menuIcon(i.meta.icon)}</span>
                <span>{i.meta.title}</span>
              </Link>
            </Col>
          ))}
        </Row>
      )}
    </Card>
  );
}

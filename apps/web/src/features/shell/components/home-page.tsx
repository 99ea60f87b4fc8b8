import { Card, Col, Descriptions, Empty, Result, Row, Typography } from 'antd';
import { useTranslation } from '../../../lib/i18n';
import { Link, useLocation } from 'react-router';
import { useSession } from '../../../lib/session';
import { leafItems, menuPath } from '../menu';
import { menuIcon } from './icons';
import './home-page.css';

/** The index page: a greeting, the user's context and shortcuts to the first menu pages. */
export function HomePage() {
  const { t } = useTranslation();
  const { userInfo, menu } = useSession();
  const location = useLocation();
  const items = menu?.menu ?? [];

  if (items.length === 0) {
    return <Result status="info" title={t('shell.emptyMenu')} />;
  }
  const shortcuts = leafItems(items)
    .filter((i) => !i.meta.internalOrExternal)
    .slice(0, 8);

  return (
    <div className="home">
      <Card className="home-hero" variant="borderless">
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('shell.welcome', { name: userInfo?.name ?? '' })}
        </Typography.Title>
        <Descriptions column={{ xs: 1, sm: 2 }} size="small">
          <Descriptions.Item label={t('shell.tenant')}>{userInfo?.tenantCode}</Descriptions.Item>
          <Descriptions.Item label={t('shell.group')}>{userInfo?.groupName ?? '-'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('shell.quickLinks')} variant="borderless" style={{ marginTop: 16 }}>
        {shortcuts.length === 0 ? (
          <Empty />
        ) : (
          <Row gutter={[16, 16]}>
            {shortcuts.map((i) => (
              <Col key={i.id} xs={12} sm={8} md={6}>
                <Link className="home-shortcut" to={{ pathname: menuPath(i), search: location.search }}>
                  <span className="home-shortcut-icon">{menuIcon(i.meta.icon)}</span>
                  <span>{i.meta.title}</span>
                </Link>
              </Col>
            ))}
          </Row>
        )}
      </Card>
    </div>
  );
}

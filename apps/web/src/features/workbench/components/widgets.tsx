/** The workbench's widgets: each reads its own data, and says so in place when it cannot. */
import { Badge, Empty, List, Tag } from 'antd';
import { Link, useLocation } from 'react-router';
import { QueryRows } from '../../../components/query-rows';
import { useTranslation } from '../../../lib/i18n';
import { useMyEnterprises, useOpenAlerts, useUnreadNotices } from '../api/workbench';

/** A page of the user's menu (the shell gives them). */
export interface PageLink {
  path: string;
  title: string;
}

/** The message page a notice opens on, and the open alerts page. */
const MESSAGE_PAGE = '/message/index';
const ALERTS_PAGE = '/deviceManage/alerts';

export function UnreadNotices() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <QueryRows query={useUnreadNotices()} empty={t('workbench.noUnread')} failed={t('workbench.failed')}>
      {(rows) => (
        <List
          size="small"
          dataSource={rows}
          renderItem={(n) => (
            <List.Item extra={<span className="wb-muted">{n.pushTime.slice(0, 10)}</span>}>
              <Link to={{ pathname: MESSAGE_PAGE, search: location.search }} className="wb-ellipsis">
                <Badge status="processing" /> {n.title}
              </Link>
            </List.Item>
          )}
        />
      )}
    </QueryRows>
  );
}

/** Tag colours dark enough for white text (4.5:1), unlike antd's light presets. */
const ESTATUS_COLORS = ['#ad4e00', '#237804', '#cf1322'];

export function MyEnterprises() {
  const { t } = useTranslation();
  return (
    <QueryRows query={useMyEnterprises()} empty={t('workbench.noEnterprises')} failed={t('workbench.failed')}>
      {(rows) => (
        <List
          size="small"
          dataSource={rows}
          renderItem={(e) => (
            <List.Item extra={<Tag color={ESTATUS_COLORS[e.estatus]}>{t(`workbench.estatus.${e.estatus}`)}</Tag>}>
              <span className="wb-ellipsis">{e.entName}</span>
            </List.Item>
          )}
        />
      )}
    </QueryRows>
  );
}

const SEVERITY_COLORS: Record<string, string> = { critical: '#cf1322', warning: '#ad4e00', info: '#0958d9' };

export function MyAlerts() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <QueryRows query={useOpenAlerts()} empty={t('workbench.noAlerts')} failed={t('workbench.failed')}>
      {(rows) => (
        <List
          size="small"
          dataSource={rows}
          renderItem={(a) => (
            <List.Item extra={<span className="wb-muted">{a.raisedTime.slice(5, 16)}</span>}>
              <Link to={{ pathname: ALERTS_PAGE, search: location.search }} className="wb-ellipsis">
                <Tag color={SEVERITY_COLORS[a.severity]}>{t(`workbench.severity.${a.severity}`)}</Tag>
                {a.deviceName} · {a.message}
              </Link>
            </List.Item>
          )}
        />
      )}
    </QueryRows>
  );
}

export function RecentPages({ items }: { items: PageLink[] }) {
  const { t } = useTranslation();
  const location = useLocation();
  if (items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workbench.noRecent')} />;
  return (
    <List
      size="small"
      dataSource={items.slice(0, 8)}
      renderItem={(i) => (
        <List.Item>
          <Link to={{ pathname: i.path, search: location.search }} className="wb-ellipsis">
            {i.title}
          </Link>
        </List.Item>
      )}
    />
  );
}

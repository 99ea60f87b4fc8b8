/**
 * Widgets that show live data of the signed-in user's tenant: their latest notices, and the park's
 * public devices. Each reads its own call; a failure shows in the widget, not as a page error.
 */
import type { Device, Notice } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { Badge, List } from 'antd';
import { Link, useLocation } from 'react-router';
import { QueryRows } from '../../../components/query-rows';
import { request } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';

const IN_PLACE = { failures: { handledBy: 'the widget, which says so in place' } } as const;

/** The message page a notice opens on. */
const MESSAGE_PAGE = '/message/index';

export function NoticesWidget({ count }: { count: number }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const notices = useQuery({
    queryKey: ['notices', 'widget', count, i18n.language],
    queryFn: () =>
      request<{ rows: Notice[] }>('/api/front/letter/replyPage', { body: { page: 1, limit: count }, ...IN_PLACE }),
  });
  return (
    <QueryRows query={notices} empty={t('dragPage.noNotices')} failed={t('dragPage.widgetFailed')} loadingRows={2}>
      {(rows) => (
        <List
          size="small"
          dataSource={rows}
          renderItem={(n) => (
            <List.Item extra={<span className="dp-muted">{n.pushTime.slice(0, 10)}</span>}>
              <Link to={{ pathname: MESSAGE_PAGE, search: location.search }} className="dp-ellipsis">
                {n.answerStatus === 0 ? <Badge status="processing" /> : null} {n.title}
              </Link>
            </List.Item>
          )}
        />
      )}
    </QueryRows>
  );
}

export function DevicesWidget({ count }: { count: number }) {
  const { t, i18n } = useTranslation();
  const tenantCode = useSession((s) => s.userInfo?.tenantCode);
  const devices = useQuery({
    queryKey: ['open-devices', 'widget', tenantCode, count, i18n.language],
    queryFn: () =>
      request<{ rows: Device[]; total: number }>('/api/open/devices', {
        query: { tenantCode, page: 1, limit: count },
        ...IN_PLACE,
      }),
    refetchInterval: 30_000,
  });
  return (
    <QueryRows query={devices} empty={t('dragPage.noDevices')} failed={t('dragPage.widgetFailed')} loadingRows={2}>
      {(rows) => (
        <List
          size="small"
          dataSource={rows}
          renderItem={(d) => (
            <List.Item extra={<span className="dp-muted">{d.location}</span>}>
              <Badge
                status={d.status === 'online' ? 'success' : 'default'}
                text={`${d.name} · ${t(d.status === 'online' ? 'dragPage.online' : 'dragPage.offline')}`}
              />
            </List.Item>
          )}
        />
      )}
    </QueryRows>
  );
}

/**
 * 登录记录 (账户安全): the person's own sign-in attempts, newest first, failed ones included, twenty
 * at a time (加载更早的记录 reads the next older twenty).
 */
import {
  LOGIN_OUTCOME_LABELS,
  LOGIN_VIA_LABELS,
  type LoginEvent,
  type LoginOutcome,
  type LoginVia,
} from '@portal/contracts';
import { Button, Table, Tag, Typography } from 'antd';
import { useTranslation } from '../../../lib/i18n';
import { useMyHistory } from '../api/security';
import { deviceText } from './device';
import { LoadError } from './load-error';
import '../messages';
import './security.css';

export function LoginHistorySection() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en-US' ? 'en' : 'zh';
  const history = useMyHistory();
  const rows = history.data?.pages.flatMap((p) => p.records) ?? [];
  return (
    <section className="security-section" aria-labelledby="security-history">
      <div className="security-section-head">
        <div>
          <h5 id="security-history" className="security-section-title">
            {t('security.history')}
          </h5>
          <Typography.Text type="secondary">{t('security.historyHint')}</Typography.Text>
        </div>
      </div>
      <LoadError query={history} />
      <Table<LoginEvent>
        size="small"
        rowKey="id"
        tableLayout="auto"
        scroll={{ x: true }}
        loading={history.isLoading}
        pagination={false}
        locale={{ emptyText: t('security.none') }}
        dataSource={rows}
        columns={[
          {
            title: t('security.at'),
            dataIndex: 'at',
            render: (v: string) => <span className="security-nowrap">{v}</span>,
          },
          {
            title: t('security.outcome'),
            dataIndex: 'outcome',
            render: (v: string) => (
              <Tag color={v === 'succeeded' ? '#237804' : '#a8071a'}>
                {LOGIN_OUTCOME_LABELS[v as LoginOutcome]?.[lang] ?? v}
              </Tag>
            ),
          },
          {
            title: t('security.via'),
            dataIndex: 'via',
            render: (v: string) => LOGIN_VIA_LABELS[v as LoginVia]?.[lang] ?? v,
          },
          {
            title: t('security.device'),
            key: 'device',
            render: (_: unknown, e) => deviceText(e.device) ?? t('security.unknownDevice'),
          },
          { title: t('security.ip'), dataIndex: 'ip', render: (v: string) => v || '-' },
        ]}
      />
      {history.hasNextPage ? (
        <Button
          className="security-more"
          loading={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          {t('security.more')}
        </Button>
      ) : null}
    </section>
  );
}

/**
 * 登录日志 (menu component `admin/login-history`): every sign-in attempt in the tenant the console
 * acts on, newest first — failed ones and unknown usernames included — searched by the username
 * typed, address, outcome and days (China time; without a start, the last 30 days), twenty at a
 * time (加载更早的记录 reads the next older ones: no count over the whole history). 导出 CSV
 * exports what the filters match (at most LOGIN_HISTORY_EXPORT_MAX entries), audited.
 */
import {
  LOGIN_HISTORY_EXPORT_MAX,
  LOGIN_OUTCOME_LABELS,
  LOGIN_OUTCOMES,
  LOGIN_VIA_LABELS,
  type LoginEvent,
  type LoginHistoryExport,
  type LoginHistoryPage as HistoryPage,
  type LoginOutcome,
  type LoginVia,
} from '@portal/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button, Form, Input, Select, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { ADMIN_KEY, adminCall } from '../api/admin';
import { useScope } from '../api/scope';
import { ConsolePage, QueryTable, TAG } from '../components/console';
import { CSV_TYPE, saveFile } from '../components/save-file';

interface Filter {
  user?: string;
  ip?: string;
  outcome?: string;
  from?: string;
  to?: string;
}

const IN_PLACE = { handledBy: 'the console page, which shows the message in place of its list, with a retry' };

export function LoginHistoryPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en-US' ? 'en' : 'zh';
  const [filter, setFilter] = useState<Filter>({});
  const [exporting, setExporting] = useState(false);
  const [form] = Form.useForm<Filter>();
  const tenant = useScope((s) => s.tenant?.code ?? null);
  const history = useInfiniteQuery({
    queryKey: [ADMIN_KEY, tenant, i18n.language, '/api/admin/login-history', filter],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      adminCall<HistoryPage>('/api/admin/login-history', {
        query: { limit: 20, ...filter, ...(pageParam ? { before: pageParam } : {}) },
        failures: IN_PLACE,
      }),
    getNextPageParam: (last) => last.next,
  });
  const rows = history.data?.pages.flatMap((p) => p.records) ?? [];
  const outcomes = useMemo(
    () => LOGIN_OUTCOMES.map((o) => ({ value: o, label: LOGIN_OUTCOME_LABELS[o][lang] })),
    [lang],
  );

  const columns: ColumnsType<LoginEvent> = [
    {
      title: t('admin.loginHistory.at'),
      dataIndex: 'at',
      render: (v: string) => <span className="admin-nowrap">{v}</span>,
    },
    {
      title: t('admin.loginHistory.user'),
      key: 'user',
      render: (_, e) => (
        <span className="admin-nowrap">
          {e.username}
          {e.user ? <div className="admin-secondary">{e.user.name}</div> : null}
        </span>
      ),
    },
    {
      title: t('admin.loginHistory.outcome'),
      dataIndex: 'outcome',
      render: (v: string) => (
        <Tag color={v === 'succeeded' ? TAG.good : TAG.bad}>{LOGIN_OUTCOME_LABELS[v as LoginOutcome]?.[lang] ?? v}</Tag>
      ),
    },
    {
      title: t('admin.loginHistory.via'),
      dataIndex: 'via',
      render: (v: string) => <span className="admin-nowrap">{LOGIN_VIA_LABELS[v as LoginVia]?.[lang] ?? v}</span>,
    },
    {
      title: t('admin.loginHistory.device'),
      key: 'device',
      render: (_, e) =>
        [e.device.browser, e.device.os].filter(Boolean).join(' · ') || t('admin.loginHistory.unknownDevice'),
    },
    {
      title: t('admin.loginHistory.ip'),
      dataIndex: 'ip',
      render: (v: string) => <span className="admin-nowrap">{v || '-'}</span>,
    },
  ];

  const apply = (v: Filter) => {
    const clean = (s?: string) => s?.trim() || undefined;
    setFilter({
      user: clean(v.user),
      ip: clean(v.ip),
      outcome: clean(v.outcome),
      from: clean(v.from),
      to: clean(v.to),
    });
  };

  async function exportCsv() {
    setExporting(true);
    let file: LoginHistoryExport;
    try {
      file = await adminCall<LoginHistoryExport>('/api/admin/login-history/export', { query: { ...filter } });
    } catch {
      return; // the handler showed the server's message
    } finally {
      setExporting(false);
    }
    saveFile(file.fileName, file.csv, CSV_TYPE);
    if (file.truncated) toast('warning', t('admin.loginHistory.exportTruncated', { max: LOGIN_HISTORY_EXPORT_MAX }));
    else toast('success', t('admin.loginHistory.exported', { count: file.rows }));
  }

  return (
    <ConsolePage className="admin-login-history">
      <Form<Filter> form={form} layout="inline" className="admin-audit-filter" onFinish={apply}>
        <Form.Item name="user" label={t('admin.loginHistory.user')}>
          <Input allowClear placeholder={t('admin.loginHistory.userHint')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="ip" label={t('admin.loginHistory.ip')}>
          <Input allowClear placeholder={t('admin.loginHistory.ipHint')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="outcome" label={t('admin.loginHistory.outcome')}>
          <Select
            allowClear
            placeholder={t('admin.loginHistory.outcomeHint')}
            options={outcomes}
            popupMatchSelectWidth={false}
          />
        </Form.Item>
        <Form.Item name="from" label={t('admin.loginHistory.from')} tooltip={t('admin.loginHistory.rangeHint')}>
          <Input type="date" />
        </Form.Item>
        <Form.Item name="to" label={t('admin.loginHistory.to')}>
          <Input type="date" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('admin.loginHistory.apply')}
          </Button>{' '}
          <Button
            onClick={() => {
              form.resetFields();
              apply({});
            }}
          >
            {t('admin.loginHistory.reset')}
          </Button>{' '}
          <Tooltip title={t('admin.loginHistory.exportHint', { max: LOGIN_HISTORY_EXPORT_MAX })}>
            <Button loading={exporting} onClick={() => void exportCsv()}>
              {t('admin.loginHistory.export')}
            </Button>
          </Tooltip>
        </Form.Item>
      </Form>
      <QueryTable<LoginEvent> query={history} columns={columns} dataSource={rows} pagination={false} />
      {history.hasNextPage ? (
        <Button
          style={{ marginTop: 12 }}
          loading={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          {t('admin.loginHistory.more')}
        </Button>
      ) : null}
    </ConsolePage>
  );
}

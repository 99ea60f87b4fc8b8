/**
 * 审计日志 (ADR 031, menu component `admin/audit`): what was done in the tenant, newest first:
 * filtered by who (username), what (an action or its beginning: `admin:` for every operator's change,
 * `login` for sign-ins) and when (days, China time); each entry's detail as formatted JSON.
 */
import type { AuditEntry, AuditQuery } from '@portal/contracts';
import { AutoComplete, Button, Form, Input } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { usePaged } from '../api/admin';
import { ConsolePage, formatTime, QueryTable } from '../components/console';

/** Beginnings of actions operators look for most (any other may be typed). */
const ACTIONS = ['admin:', 'login.', 'login.failed', 'password.', 'register.', 'session.switch'];

interface Filter {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

export function AuditPage() {
  const { t, i18n } = useTranslation();
  const { page, pagination, toFirst } = usePaging();
  const [filter, setFilter] = useState<Filter>({});
  const [form] = Form.useForm<Filter>();
  const query: AuditQuery = { page: page.current, limit: page.size, ...filter };
  const list = usePaged<AuditEntry>('/api/admin/audit', query);
  const columns: ColumnsType<AuditEntry> = [
    {
      title: t('admin.audit.at'),
      dataIndex: 'at',
      render: (v: string) => <span className="admin-nowrap">{formatTime(v, i18n.language)}</span>,
    },
    {
      title: t('admin.audit.actor'),
      dataIndex: 'actor',
      render: (v: AuditEntry['actor']) => (v ? `${v.name} (${v.username})` : '-'),
    },
    { title: t('admin.audit.action'), dataIndex: 'action', render: (v: string) => <code>{v}</code> },
    { title: t('admin.audit.ip'), dataIndex: 'ip', render: (v: string | null) => v ?? '-' },
  ];
  const apply = (v: Filter) => {
    const clean = (s?: string) => s?.trim() || undefined;
    setFilter({ actor: clean(v.actor), action: clean(v.action), from: clean(v.from), to: clean(v.to) });
    toFirst();
  };
  return (
    <ConsolePage className="admin-audit">
      <Form<Filter> form={form} layout="inline" className="admin-audit-filter" onFinish={apply}>
        <Form.Item name="actor" label={t('admin.audit.actor')}>
          <Input allowClear placeholder={t('admin.audit.actorHint')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="action" label={t('admin.audit.action')}>
          <AutoComplete
            allowClear
            placeholder={t('admin.audit.actionHint')}
            options={ACTIONS.map((value, i) => ({ value, label: `${value} · ${t(`admin.audit.actions.${i}`)}` }))}
            filterOption={(input, option) => String(option?.value ?? '').startsWith(input)}
          />
        </Form.Item>
        <Form.Item name="from" label={t('admin.audit.from')}>
          <Input type="date" />
        </Form.Item>
        <Form.Item name="to" label={t('admin.audit.to')}>
          <Input type="date" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('admin.audit.apply')}
          </Button>{' '}
          <Button
            onClick={() => {
              form.resetFields();
              apply({});
            }}
          >
            {t('admin.audit.reset')}
          </Button>
        </Form.Item>
      </Form>
      <QueryTable<AuditEntry>
        query={list}
        columns={columns}
        dataSource={list.data?.records}
        pagination={pagination(list.data?.total ?? 0)}
        expandable={{
          rowExpandable: (e) => e.detail !== null,
          expandedRowRender: (e) => <pre className="admin-json">{JSON.stringify(e.detail, null, 2)}</pre>,
        }}
      />
    </ConsolePage>
  );
}

/**
 * 短信发件箱 (ADR 031, menu component `admin/sms`): the text messages the portal sent (or, without
 * an SMS gateway, would have sent), newest first, with search and paging.
 */
import type { AdminPageQuery, OutboxMessage } from '@portal/contracts';
import { Input } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { usePaged } from '../api/admin';
import { ConsolePage, formatTime, QueryTable, Toolbar } from '../components/console';

export function SmsPage() {
  const { t, i18n } = useTranslation();
  const { page, pagination, toFirst } = usePaging();
  const [q, setQ] = useState('');
  const query: AdminPageQuery = { page: page.current, limit: page.size, q: q || undefined };
  const list = usePaged<OutboxMessage>('/api/admin/sms-outbox', query);
  const columns: ColumnsType<OutboxMessage> = [
    {
      title: t('admin.sms.at'),
      dataIndex: 'createdAt',
      render: (v: string) => <span className="admin-nowrap">{formatTime(v, i18n.language)}</span>,
    },
    {
      title: t('admin.sms.phone'),
      dataIndex: 'phone',
      render: (v: string) => <span className="admin-nowrap">{v}</span>,
    },
    {
      title: t('admin.sms.body'),
      dataIndex: 'body',
      render: (v: string) => <span className="admin-sms-body">{v}</span>,
    },
  ];
  return (
    <ConsolePage className="admin-sms">
      <Toolbar
        filters={
          <Input.Search
            allowClear
            aria-label={t('admin.sms.search')}
            placeholder={t('admin.sms.search')}
            onSearch={(v) => {
              setQ(v.trim());
              toFirst();
            }}
          />
        }
      />
      <QueryTable<OutboxMessage>
        query={list}
        columns={columns}
        dataSource={list.data?.records}
        pagination={pagination(list.data?.total ?? 0)}
      />
    </ConsolePage>
  );
}

import { DEVICE_TYPES, type Device, type OpenDeviceQuery } from '@portal/contracts';
import { Badge, Card, Input, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { useOpenDevices } from '../api/devices';
import { FilterSelect } from './filter-select';
import { reading } from './labels';
import './devices.css';
import '../../../locales/devices';

/** /deviceManage/devices: the park's public devices, their state and latest readings. */
export function DevicesPage({ tenantCode }: { tenantCode: string }) {
  const { t } = useTranslation();
  const { page, pagination, toFirst } = usePaging();
  const [filter, setFilter] = useState<Pick<OpenDeviceQuery, 'type' | 'status' | 'q'>>({});
  const list = useOpenDevices({ tc: tenantCode, page: page.current, limit: page.size, ...filter });
  const change = (next: typeof filter) => {
    setFilter((f) => ({ ...f, ...next }));
    toFirst();
  };
  const columns: ColumnsType<Device> = [
    {
      title: t('devices.name'),
      dataIndex: 'name',
      render: (name: string, d) => (
        <span className="device-name">
          {name}
          <span className="device-code">{d.code}</span>
        </span>
      ),
    },
    {
      title: t('devices.type'),
      dataIndex: 'type',
      responsive: ['sm'],
      render: (v: string) => <Tag>{t(`devices.types.${v}`)}</Tag>,
    },
    { title: t('devices.location'), dataIndex: 'location', responsive: ['md'] },
    {
      title: t('devices.status'),
      dataIndex: 'status',
      render: (v: string) => <Badge status={v === 'online' ? 'success' : 'default'} text={t(`devices.${v}`)} />,
    },
    { title: t('devices.lastSeen'), dataIndex: 'lastSeen', responsive: ['lg'], render: (v: string | null) => v ?? '-' },
    {
      title: t('devices.latest'),
      dataIndex: 'latest',
      render: (latest: Record<string, number>) =>
        Object.keys(latest).length === 0 ? (
          '-'
        ) : (
          <ul className="device-readings">
            {Object.entries(latest).map(([metric, value]) => (
              <li key={metric}>{reading(t, metric, value)}</li>
            ))}
          </ul>
        ),
    },
  ];
  return (
    <Card variant="borderless">
      <Space wrap className="open-filters">
        <FilterSelect
          name={t('devices.type')}
          all={t('devices.allTypes')}
          values={DEVICE_TYPES}
          value={filter.type}
          label={(v) => t(`devices.types.${v}`)}
          onChange={(type) => change({ type })}
        />
        <FilterSelect
          name={t('devices.status')}
          all={t('devices.allStates')}
          values={['online', 'offline'] as const}
          value={filter.status}
          label={(v) => t(`devices.${v}`)}
          onChange={(status) => change({ status })}
        />
        <Input.Search
          aria-label={t('devices.search')}
          placeholder={t('devices.search')}
          allowClear
          maxLength={60}
          onSearch={(q) => change({ q: q.trim() })}
          className="open-search"
        />
      </Space>
      <Table<Device>
        rowKey="id"
        size="middle"
        // A table too wide for a phone scrolls inside its card (docs/product/screens.md#console-tables).
        scroll={{ x: true }}
        loading={list.isFetching && !list.data}
        columns={columns}
        dataSource={list.data?.rows}
        pagination={pagination(list.data?.total ?? 0)}
        locale={{ emptyText: list.isError ? t('devices.failed') : t('devices.empty') }}
      />
    </Card>
  );
}

import { ALERT_SEVERITIES, ALERT_STATES, type DeviceAlert, type OpenAlertQuery } from '@portal/contracts';
import { Button, Card, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { hasPermission } from '../../../lib/permissions';
import { useHandleAlert, useOpenAlerts, usePermissionData } from '../api/devices';
import { FilterSelect } from './filter-select';
import './devices.css';
import '../../../locales/devices';

const SEVERITY_COLOR: Record<string, string> = { info: 'blue', warning: 'orange', critical: 'red' };
const STATE_COLOR: Record<string, string> = { open: 'red', acknowledged: 'gold', closed: 'default' };

/** /deviceManage/alerts: the alerts of the park's public devices; handlers (alert:handle) act on them. */
export function AlertsPage({ tenantCode }: { tenantCode: string }) {
  const { t } = useTranslation();
  const { page, pagination, toFirst } = usePaging();
  const [filter, setFilter] = useState<Pick<OpenAlertQuery, 'severity' | 'state'>>({});
  const list = useOpenAlerts({ tc: tenantCode, page: page.current, limit: page.size, ...filter });
  const permissions = usePermissionData();
  const mayHandle = hasPermission('alert:handle', permissions.data ?? null);
  const handle = useHandleAlert();
  const change = (next: typeof filter) => {
    setFilter((f) => ({ ...f, ...next }));
    toFirst();
  };
  const columns: ColumnsType<DeviceAlert> = [
    {
      title: t('devices.severity'),
      dataIndex: 'severity',
      render: (v: string) => <Tag color={SEVERITY_COLOR[v]}>{t(`devices.severities.${v}`)}</Tag>,
    },
    { title: t('devices.message'), dataIndex: 'message' },
    {
      title: t('devices.device'),
      dataIndex: 'deviceName',
      responsive: ['md'],
      render: (name: string, a) => (
        <span className="device-name">
          {name}
          <span className="device-code">{a.location}</span>
        </span>
      ),
    },
    { title: t('devices.raised'), dataIndex: 'raisedTime', responsive: ['sm'] },
    {
      title: t('devices.state'),
      dataIndex: 'state',
      render: (v: string) => <Tag color={STATE_COLOR[v]}>{t(`devices.states.${v}`)}</Tag>,
    },
    ...(mayHandle
      ? [
          {
            title: t('devices.actions'),
            key: 'actions',
            render: (_: unknown, a: DeviceAlert) => (
              <Space size={4}>
                {a.state === 'open' ? (
                  <Button
                    size="small"
                    autoInsertSpace={false}
                    onClick={() => handle.mutate({ id: a.id, action: 'acknowledge' })}
                  >
                    {t('devices.acknowledge')}
                  </Button>
                ) : null}
                {a.state !== 'closed' ? (
                  <Button
                    size="small"
                    autoInsertSpace={false}
                    onClick={() => handle.mutate({ id: a.id, action: 'close' })}
                  >
                    {t('devices.close')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]
      : []),
  ];
  return (
    <Card variant="borderless">
      <Space wrap className="open-filters">
        <FilterSelect
          name={t('devices.severity')}
          all={t('devices.allSeverities')}
          values={ALERT_SEVERITIES}
          value={filter.severity}
          label={(v) => t(`devices.severities.${v}`)}
          onChange={(severity) => change({ severity })}
        />
        <FilterSelect
          name={t('devices.state')}
          all={t('devices.allStates')}
          values={ALERT_STATES}
          value={filter.state}
          label={(v) => t(`devices.states.${v}`)}
          onChange={(state) => change({ state })}
        />
      </Space>
      <Table<DeviceAlert>
        rowKey="id"
        size="middle"
        // A table too wide for a phone scrolls inside its card (docs/product/screens.md#console-tables).
        scroll={{ x: true }}
        loading={list.isFetching && !list.data}
        columns={columns}
        dataSource={list.data?.rows}
        pagination={pagination(list.data?.total ?? 0)}
        locale={{ emptyText: list.isError ? t('devices.failed') : t('devices.noAlerts') }}
      />
    </Card>
  );
}

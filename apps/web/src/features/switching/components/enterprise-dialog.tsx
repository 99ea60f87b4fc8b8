import { LIMITS, type JoinedEnterprise } from '@portal/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Grid, Modal, Table, Tag, Typography } from 'antd';
import type { CheckboxProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { useSession } from '../../../lib/session';
import { warn } from './warn';
import { getJoinedEnterprises, switchEnterprise } from '../api/account';
import './switching.css';

/**
 * 切换企业 (docs/product/screens.md#account-dialogs, docs/product/behaviour.md#switching): the joined enterprises, one page at a time, chosen with a radio;
 * another one than the current is confirmed, switched to, the saved tabs cleared and the app
 * reloaded. A refusal shows the server's message as an error (docs/product/errors.md#dialogs).
 */
export function EnterpriseDialog({ onClose, clearTabs }: { onClose: () => void; clearTabs: () => void }) {
  const { t } = useTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const current = useSession((s) => s.userInfo?.groupId ?? null);
  const currentName = useSession((s) => s.userInfo?.groupName ?? null);
  const { page, pagination } = usePaging(LIMITS.enterprisePageSize);
  const [chosen, setChosen] = useState<JoinedEnterprise | null>(null);
  const [pending, setPending] = useState(false);
  const list = useQuery({
    queryKey: ['joined-enterprises', page.current, page.size],
    queryFn: () => getJoinedEnterprises(page.current, page.size),
    placeholderData: keepPreviousData,
  });
  const selected = chosen?.entId ?? current;
  // Wide screens scroll a table of long names sideways; a phone wraps the name so that it fits.
  const wide = Grid.useBreakpoint().md ?? true;

  const columns: ColumnsType<JoinedEnterprise> = [
    {
      title: t('switching.entName'),
      dataIndex: 'entName',
      render: (name: string, row) => (
        <>
          {name}
          {row.entId === current && <Tag color="processing">{t('switching.current')}</Tag>}
        </>
      ),
    },
    // On a phone the name and the status are what matter; the rest waits for a wider screen.
    {
      title: t('switching.creditCode'),
      dataIndex: 'creditCode',
      responsive: ['md'],
      render: (v: string | null) => v || '-',
    },
    { title: t('switching.joinTime'), dataIndex: 'crtTime', responsive: ['md'] },
    {
      title: t('switching.estatus'),
      dataIndex: 'estatus',
      // Coloured text (docs/product/behaviour.md#enterprise-status), in shades dark enough to read on white and on the chosen row.
      render: (s: 0 | 1 | 2) => <span className={`estatus estatus-${s}`}>{t(`switching.estatus_${s}`)}</span>,
    },
  ];

  const onOk = () => {
    if (!chosen || chosen.entId === current) return onClose();
    void modal.confirm({
      title: t('switching.confirmEnterprise', { name: chosen.entName }),
      onOk: async () => {
        setPending(true);
        try {
          await switchEnterprise(chosen.entId, clearTabs); // the app reloads
        } catch (err) {
          warn(err, 'error'); // docs/product/errors.md#dialogs: an error with the server's message (shown by the handler for API refusals)
          setPending(false);
        }
      },
    });
  };

  return (
    <Modal
      open
      width={820}
      title={t('switching.enterprise')}
      onCancel={onClose}
      onOk={onOk}
      okButtonProps={{ loading: pending }}
    >
      {currentName && (
        <Typography.Paragraph className="switch-current-ent" type="secondary">
          {t('switching.currentEnterprise', { name: currentName })}
        </Typography.Paragraph>
      )}
      <Table<JoinedEnterprise>
        className="switch-enterprises"
        rowKey="entId"
        size="small"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.rows}
        scroll={wide ? { x: 'max-content' } : undefined}
        locale={list.error ? { emptyText: list.error.message } : undefined}
        onRow={(row) => ({ onClick: () => setChosen(row) })}
        rowSelection={{
          type: 'radio',
          selectedRowKeys: selected ? [selected] : [],
          onChange: (_keys, rows) => setChosen(rows[0] ?? null),
          // Each radio is named by its enterprise (antd's types omit aria props; the radio passes them on).
          getCheckboxProps: (row) => ({ 'aria-label': row.entName }) as Partial<CheckboxProps>,
        }}
        pagination={pagination(list.data?.total ?? 0, {
          showSizeChanger: true,
          pageSizeOptions: LIMITS.enterprisePageSizes.map(String),
        })}
      />
      {modalHolder}
    </Modal>
  );
}

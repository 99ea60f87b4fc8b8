import type { EnterpriseMember } from '@portal/contracts';
import { Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { useEnterpriseMembers } from '../api/enterprise';

/** 成员列表 (docs/product/screens.md#menu-routes `ent/members/list`): the people of the current enterprise, earliest first. */
export function MembersPage() {
  const { t } = useTranslation();
  const { page, pagination } = usePaging();
  const list = useEnterpriseMembers(page.current, page.size);
  const columns: ColumnsType<EnterpriseMember> = [
    { title: t('enterprise.memberName'), dataIndex: 'name' },
    { title: t('enterprise.username'), dataIndex: 'username' },
    { title: t('enterprise.mobile'), dataIndex: 'mobile', render: (v: string | null) => v ?? '-' },
    { title: t('switching.joinTime'), dataIndex: 'crtTime', responsive: ['md'] },
  ];
  return (
    <Table<EnterpriseMember>
      className="enterprise-members"
      rowKey="userId"
      size="middle"
      loading={list.isFetching}
      columns={columns}
      dataSource={list.data?.rows}
      pagination={pagination(list.data?.total ?? 0)}
    />
  );
}

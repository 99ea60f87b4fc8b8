/** Pickers of the tenant's roles and enterprises, for the user forms. */
import type { AdminEnterprise, AdminRole, Paged } from '@portal/contracts';
import { Select, type SelectProps } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useAdminQuery } from '../api/admin';
import { nameIn, useNameOf } from './console';

type Ref = { id: string; name: string };

export function useRoles() {
  return useAdminQuery<AdminRole[]>('/api/admin/roles');
}

/** The tenant's roles, several at once (by id). */
export function RolesSelect(props: Omit<SelectProps<string[]>, 'options' | 'mode'>) {
  const { t } = useTranslation();
  const nameOf = useNameOf();
  const roles = useRoles();
  return (
    <Select<string[]>
      mode="multiple"
      allowClear
      loading={roles.isPending}
      placeholder={t('admin.users.pickRoles')}
      optionFilterProp="label"
      options={(roles.data ?? []).map((r) => ({ value: r.id, label: nameOf(r.title, r.titleEn) }))}
      {...props}
    />
  );
}

/**
 * The tenant's enterprises, several at once (by id), found by name as one types: a park may have
 * thousands. `known` names the ones already chosen, which the first page may not hold.
 */
export function EnterprisesSelect({
  known = [],
  ...props
}: Omit<SelectProps<string[]>, 'options' | 'mode'> & { known?: Ref[] }) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const found = useAdminQuery<Paged<AdminEnterprise>>('/api/admin/enterprises', { q, limit: 30 });
  const options = useMemo(() => {
    const seen = new Map<string, string>(known.map((e) => [e.id, e.name]));
    for (const e of found.data?.records ?? []) seen.set(e.id, nameIn(i18n.language, e.name, e.nameEn));
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [known, found.data, i18n.language]);
  return (
    <Select<string[]>
      mode="multiple"
      allowClear
      showSearch
      filterOption={false}
      onSearch={setSearch}
      loading={found.isFetching}
      placeholder={t('admin.users.pickEnterprises')}
      notFoundContent={found.isFetching ? t('admin.loading') : t('admin.none')}
      options={options}
      {...props}
    />
  );
}

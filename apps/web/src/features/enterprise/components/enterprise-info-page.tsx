import { Badge, Descriptions, Empty, Skeleton } from 'antd';
import { useTranslation } from '../../../lib/i18n';
import { useCurrentEnterprise } from '../api/enterprise';
import './enterprise-info-page.css';

const ESTATUS_BADGE = ['warning', 'success', 'error'] as const;
// Two columns from tablets up, one on phones; the name and the join time take a whole row.
const COLUMNS = { xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 };
const WHOLE_ROW = COLUMNS;

/**
 * 企业信息 (docs/product/screens.md#menu-routes `ent/colist`, opened from the menu and the user drop-down): the profile of the
 * enterprise the session works for, as registered, and when the user joined it.
 */
export function EnterpriseInfoPage() {
  const { t } = useTranslation();
  const current = useCurrentEnterprise();
  if (current.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  const ent = current.data;
  if (!ent) return <Empty description={current.isError ? current.error.message : t('enterprise.none')} />;
  const dash = (v: string | null) => v || '-';
  return (
    <Descriptions
      className="enterprise-info"
      bordered
      column={COLUMNS}
      size="middle"
      items={[
        { key: 'name', label: t('switching.entName'), children: ent.entName, span: WHOLE_ROW },
        // A code is read whole: it does not break across lines (the label wraps instead).
        {
          key: 'creditCode',
          label: t('switching.creditCode'),
          children: dash(ent.creditCode),
          contentStyle: { whiteSpace: 'nowrap' },
        },
        {
          key: 'estatus',
          label: t('switching.estatus'),
          children: <Badge status={ESTATUS_BADGE[ent.estatus]} text={t(`switching.estatus_${ent.estatus}`)} />,
        },
        ...(ent.reviewReason
          ? [{ key: 'reason', label: t('enterprise.reviewReason'), children: ent.reviewReason, span: WHOLE_ROW }]
          : []),
        { key: 'industry', label: t('enterprise.industry'), children: dash(ent.industry) },
        { key: 'region', label: t('enterprise.region'), children: dash(ent.region?.join(' / ') ?? null) },
        { key: 'joinTime', label: t('switching.joinTime'), children: ent.crtTime, span: WHOLE_ROW },
      ]}
    />
  );
}

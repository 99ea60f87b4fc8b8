/**
 * One application of the review queue as it was registered (`GET /api/admin/enterprises/:id`):
 * the enterprise, its industry and region, the contact and position given, who registered it and
 * when, and the review so far; passed, or not passed with a reason, from here. Names are shown in
 * the reader's language, the Chinese of record beside an English one.
 */
import type { AdminEnterpriseDetail, CatalogEntry } from '@portal/contracts';
import { Alert, Button, Descriptions, Drawer, Popconfirm, Skeleton, Space, Tag, type DescriptionsProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useAdminQuery } from '../api/admin';
import { formatTime, Named, nameIn, TAG, usePhone } from '../components/console';

const COLOR = [TAG.waiting, TAG.good, TAG.bad] as const;

/** A name that is data (ADR 047): in the reader's language, the other one under it; "-" when none was given. */
function InLanguage({ zh, en }: { zh: string | null; en: string }) {
  return zh ? <Named name={zh} en={en} both /> : <>-</>;
}

/** A catalog entry: its names from the top level down, and its code. */
function Catalog({ entry }: { entry: CatalogEntry | null }) {
  if (!entry) return <>-</>;
  return (
    <>
      {entry.names.length ? entry.names.join(' / ') : null}
      <div className="admin-secondary">{entry.code}</div>
    </>
  );
}

export function EnterpriseDetail({
  id,
  busy,
  onClose,
  onPass,
  onReject,
}: {
  /** The application shown; null: closed. */
  id: string | null;
  busy: boolean;
  onClose: () => void;
  onPass: (e: AdminEnterpriseDetail) => void;
  onReject: (e: AdminEnterpriseDetail) => void;
}) {
  const { t, i18n } = useTranslation();
  const phone = usePhone();
  const detail = useAdminQuery<AdminEnterpriseDetail>(
    `/api/admin/enterprises/${encodeURIComponent(id ?? '')}`,
    {},
    {
      enabled: id !== null,
    },
  );
  // Another row's answer may still be shown while this one loads: only this id's is.
  const e = detail.data && detail.data.id === id ? detail.data : undefined;
  const row = (key: string, label: string, children: ReactNode) => ({ key, label, children });
  const items: DescriptionsProps['items'] = e
    ? [
        row('name', t('admin.enterprises.name'), <InLanguage zh={e.name} en={e.nameEn} />),
        row(
          'creditCode',
          t('admin.enterprises.creditCode'),
          <span className="admin-nowrap">{e.creditCode ?? '-'}</span>,
        ),
        row('industry', t('admin.enterprises.industry'), <Catalog entry={e.industry} />),
        row('region', t('admin.enterprises.region'), <Catalog entry={e.region} />),
        row('contacts', t('admin.enterprises.contacts'), <InLanguage zh={e.contacts} en={e.contactsEn} />),
        row('position', t('admin.enterprises.position'), <InLanguage zh={e.position} en={e.positionEn} />),
        row(
          'registrant',
          t('admin.enterprises.registrant'),
          e.registrant ? (
            <>
              <InLanguage zh={e.registrant.name} en={e.registrant.nameEn} />
              <div className="admin-secondary">{t('admin.enterprises.username', { name: e.registrant.username })}</div>
            </>
          ) : (
            t('admin.enterprises.noRegistrant')
          ),
        ),
        row(
          'mobile',
          t('admin.enterprises.mobile'),
          e.registrant?.mobile ? (
            <Space size={4} wrap>
              <span className="admin-nowrap">{e.registrant.mobile}</span>
              <Tag color={e.registrant.mobileVerified ? TAG.good : TAG.waiting}>
                {t(e.registrant.mobileVerified ? 'admin.enterprises.verified' : 'admin.enterprises.unverified')}
              </Tag>
            </Space>
          ) : (
            '-'
          ),
        ),
        row('createdAt', t('admin.enterprises.createdAt'), formatTime(e.createdAt, i18n.language)),
        row('members', t('admin.enterprises.members'), e.members),
        row(
          'estatus',
          t('admin.enterprises.state'),
          <Tag color={COLOR[e.estatus] ?? 'default'}>{t(`admin.enterprises.states.${e.estatus}`)}</Tag>,
        ),
        row('reviewedAt', t('admin.enterprises.reviewedAt'), formatTime(e.reviewedAt, i18n.language)),
        ...(e.reviewReason
          ? [row('reason', t('admin.enterprises.reason'), <span className="admin-wrap-text">{e.reviewReason}</span>)]
          : []),
      ]
    : [];

  return (
    <Drawer
      open={id !== null}
      title={t('admin.enterprises.detail')}
      onClose={onClose}
      width={phone ? '100%' : 600}
      destroyOnHidden
      className="admin-enterprise-detail"
      footer={
        e ? (
          <Space className="admin-drawer-footer" wrap>
            <Button onClick={onClose}>{t('admin.enterprises.close')}</Button>
            {e.estatus !== 2 ? (
              <Button danger disabled={busy} onClick={() => onReject(e)}>
                {t('admin.enterprises.reject')}
              </Button>
            ) : null}
            {e.estatus !== 1 ? (
              <Popconfirm
                title={t('admin.enterprises.passConfirm', { name: nameIn(i18n.language, e.name, e.nameEn) })}
                okText={t('admin.enterprises.pass')}
                onConfirm={() => onPass(e)}
              >
                <Button type="primary" loading={busy}>
                  {t('admin.enterprises.pass')}
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        ) : null
      }
    >
      {detail.isError && detail.error ? (
        <Alert
          type="error"
          showIcon
          message={t('admin.loadFailed')}
          description={detail.error.message}
          action={
            <Button size="small" onClick={() => void detail.refetch()}>
              {t('admin.retry')}
            </Button>
          }
        />
      ) : e ? (
        <Descriptions bordered column={1} size="small" items={items} labelStyle={{ width: phone ? 96 : 160 }} />
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </Drawer>
  );
}

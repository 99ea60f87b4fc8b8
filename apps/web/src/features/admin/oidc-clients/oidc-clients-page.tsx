/**
 * OIDC 客户端 (menu component `admin/oidc-clients`): the applications that sign in through the
 * portal with OpenID Connect. A list with search and paging; a drawer to register or change one; a
 * confidential client's secret shown once in a dialog (at creation and when replaced); enable,
 * disable and delete. The server checks the same rule the form shows (`oidcClientProblem`).
 */
import { PlusOutlined } from '@ant-design/icons';
import {
  OIDC_GRANT_TYPES,
  OIDC_ID_TOKEN_ALGS,
  OIDC_SCOPES,
  OIDC_URIS_MAX,
  isRedirectUri,
  type AdminOidcClient,
  type OidcClientCreated,
  type OidcClientInput,
  type OidcClientSecret,
} from '@portal/contracts';
import { Alert, Button, Checkbox, Form, Input, Modal, Popconfirm, Radio, Select, Switch, Tag, Typography } from 'antd';
import type { FormRule } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { idPath, patch, post, remove, useChange, usePaged } from '../api/admin';
import { ConsolePage, FormDrawer, formatTime, Named, QueryTable, Toolbar, useNameOf } from '../components/console';
import { useRoles } from '../components/pickers';
import { maxLength, requiredText } from '../components/rules';
import './oidc-clients.css';

const CLIENTS = '/api/admin/oidc-clients';
const USER_GRANTS = ['authorization_code', 'urn:ietf:params:oauth:grant-type:device_code'];

/** A secret to show once: whose, and the secret itself. */
interface Shown {
  name: string;
  clientId: string;
  secret: string;
}

export function OidcClientsPage() {
  const { t, i18n } = useTranslation();
  const nameOf = useNameOf();
  const { page, pagination, toFirst } = usePaging();
  const [q, setQ] = useState('');
  const list = usePaged<AdminOidcClient>(CLIENTS, { page: page.current, limit: page.size, q: q || undefined });
  const [editing, setEditing] = useState<AdminOidcClient | 'new' | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const { busy, run } = useChange();

  const rotate = async (c: AdminOidcClient) => {
    const done = await run(() => post<OidcClientSecret>(idPath(CLIENTS, c.id, 'secret')));
    if (done) setShown({ name: nameOf(c.name, c.nameEn), clientId: c.clientId, secret: done.value.secret });
  };

  const columns: ColumnsType<AdminOidcClient> = [
    { title: t('admin.oidcClients.name'), key: 'name', render: (_, c) => <Named name={c.name} en={c.nameEn} /> },
    {
      title: t('admin.oidcClients.clientId'),
      dataIndex: 'clientId',
      render: (v: string) => <code className="admin-url">{v}</code>,
    },
    {
      title: t('admin.oidcClients.type'),
      dataIndex: 'confidential',
      render: (v: boolean, c) => (
        <span className="admin-tags">
          {t(`admin.oidcClients.types.${v ? 'confidential' : 'public'}`)}
          {c.serviceAccount ? <Tag color="purple">{t('admin.oidcClients.serviceAccount')}</Tag> : null}
        </span>
      ),
    },
    {
      title: t('admin.oidcClients.grantTypes'),
      dataIndex: 'grantTypes',
      render: (v: string[]) => (
        <span className="admin-tags">
          {v.map((g) => (
            <Tag key={g}>{t(`admin.oidcClients.grants.${g}`, { defaultValue: g })}</Tag>
          ))}
        </span>
      ),
    },
    {
      title: t('admin.oidcClients.firstParty'),
      dataIndex: 'firstParty',
      render: (v: boolean) => t(v ? 'admin.oidcClients.yes' : 'admin.oidcClients.no'),
    },
    {
      title: t('admin.oidcClients.state'),
      dataIndex: 'enabled',
      render: (v: boolean, c) => (
        <Switch
          size="small"
          checked={v}
          disabled={busy}
          aria-label={t('admin.oidcClients.enabledFor', { name: nameOf(c.name, c.nameEn) })}
          checkedChildren={t('admin.oidcClients.on')}
          unCheckedChildren={t('admin.oidcClients.off')}
          onChange={(enabled) =>
            void run(
              () => post(idPath(CLIENTS, c.id, enabled ? 'enable' : 'disable')),
              t(enabled ? 'admin.oidcClients.enabledDone' : 'admin.oidcClients.disabledDone', {
                name: nameOf(c.name, c.nameEn),
              }),
            )
          }
        />
      ),
    },
    {
      title: t('admin.oidcClients.createdAt'),
      dataIndex: 'createdAt',
      render: (v: string) => <span className="admin-nowrap">{formatTime(v, i18n.language)}</span>,
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, c) => (
        <>
          <Button type="link" size="small" onClick={() => setEditing(c)}>
            {t('admin.edit')}
          </Button>
          {c.confidential ? (
            <Popconfirm
              title={t('admin.oidcClients.rotateConfirm', { name: nameOf(c.name, c.nameEn) })}
              description={t('admin.oidcClients.rotateHint')}
              okText={t('admin.oidcClients.rotate')}
              okButtonProps={{ danger: true }}
              onConfirm={() => rotate(c)}
            >
              <Button type="link" size="small">
                {t('admin.oidcClients.rotate')}
              </Button>
            </Popconfirm>
          ) : null}
          <Popconfirm
            title={t('admin.oidcClients.deleteConfirm', { name: nameOf(c.name, c.nameEn) })}
            description={t('admin.oidcClients.deleteHint')}
            okText={t('admin.delete')}
            okButtonProps={{ danger: true }}
            onConfirm={() => run(() => remove(idPath(CLIENTS, c.id)), t('admin.deleted'))}
          >
            <Button type="link" size="small" danger>
              {t('admin.delete')}
            </Button>
          </Popconfirm>
        </>
      ),
    },
  ];

  return (
    <ConsolePage className="admin-oidc-clients">
      <Toolbar
        filters={
          <Input.Search
            allowClear
            aria-label={t('admin.oidcClients.search')}
            placeholder={t('admin.oidcClients.search')}
            onSearch={(v) => {
              setQ(v.trim());
              toFirst();
            }}
          />
        }
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('admin.oidcClients.create')}
          </Button>
        }
      />
      <p className="admin-secondary oidc-intro">{t('admin.oidcClients.intro')}</p>
      <QueryTable<AdminOidcClient>
        query={list}
        columns={columns}
        dataSource={list.data?.records}
        pagination={pagination(list.data?.total ?? 0)}
      />
      <ClientDrawer editing={editing} onClose={() => setEditing(null)} onSecret={setShown} />
      {/* Mounted only while shown: once closed, the secret is gone from the page at once (no closing animation keeps it). */}
      {shown ? <SecretDialog shown={shown} onClose={() => setShown(null)} /> : null}
    </ConsolePage>
  );
}

/** The secret, once: a warning that it is not shown again, and a copy button. */
function SecretDialog({ shown, onClose }: { shown: Shown; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={`${t('admin.oidcClients.secretTitle')} · ${shown.name}`}
      closable={false}
      maskClosable={false}
      keyboard={false}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('admin.oidcClients.secretSaved')}
        </Button>
      }
    >
      <div className="oidc-secret">
        <Alert type="warning" showIcon message={t('admin.oidcClients.secretWarning')} />
        <dl>
          <dt>{t('admin.oidcClients.clientId')}</dt>
          <dd>
            <Typography.Text code copyable>
              {shown.clientId}
            </Typography.Text>
          </dd>
          <dt>{t('admin.oidcClients.secretLabel')}</dt>
          <dd>
            <Typography.Text code copyable data-testid="oidc-secret">
              {shown.secret}
            </Typography.Text>
          </dd>
        </dl>
      </div>
    </Modal>
  );
}

interface Values {
  name: string;
  nameEn?: string;
  confidential: boolean;
  grantTypes: string[];
  redirectUris?: string;
  postLogoutRedirectUris?: string;
  backchannelLogoutUri?: string;
  scopes: string[];
  firstParty: boolean;
  idTokenAlg: string;
  serviceAccount: boolean;
  serviceRoleId?: string | null;
}

const lines = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

function ClientDrawer({
  editing,
  onClose,
  onSecret,
}: {
  editing: AdminOidcClient | 'new' | null;
  onClose: () => void;
  onSecret: (s: Shown) => void;
}) {
  const { t } = useTranslation();
  const nameOf = useNameOf();
  const [form] = Form.useForm<Values>();
  const { busy, run } = useChange();
  const existing = editing && editing !== 'new' ? editing : null;
  const confidential = Form.useWatch('confidential', form) ?? true;
  const grantTypes = Form.useWatch('grantTypes', form) as string[] | undefined;
  const serviceAccount = Form.useWatch('serviceAccount', form) ?? false;
  // A service account (ADR 056): a confidential client_credentials client, acting in one role of the tenant.
  const mayServe = (existing?.confidential ?? confidential) && (grantTypes ?? []).includes('client_credentials');
  const roles = useRoles();
  useEffect(() => {
    if (existing)
      form.setFieldsValue({
        ...existing,
        redirectUris: existing.redirectUris.join('\n'),
        postLogoutRedirectUris: existing.postLogoutRedirectUris.join('\n'),
        backchannelLogoutUri: existing.backchannelLogoutUri ?? '',
      });
  }, [existing, form]);

  const uris: FormRule = {
    validator: (_, v: string | undefined) => {
      const given = lines(v);
      if (given.length > OIDC_URIS_MAX) return Promise.reject(new Error(t('admin.oidcClients.tooManyUris')));
      const bad = given.findIndex((u) => !isRedirectUri(u));
      return bad < 0
        ? Promise.resolve()
        : Promise.reject(new Error(t('admin.oidcClients.uriInvalid', { line: bad + 1 })));
    },
  };
  const oneUri: FormRule = {
    validator: (_, v: string | undefined) =>
      !v?.trim() || isRedirectUri(v.trim())
        ? Promise.resolve()
        : Promise.reject(new Error(t('admin.oidcClients.uriInvalid', { line: 1 }))),
  };
  const redirectRequired: FormRule = ({ getFieldValue }) => ({
    validator: (_, v: string | undefined) =>
      (getFieldValue('grantTypes') as string[] | undefined)?.includes('authorization_code') && lines(v).length === 0
        ? Promise.reject(new Error(t('admin.oidcClients.redirectRequired')))
        : Promise.resolve(),
  });
  const openidRequired: FormRule = ({ getFieldValue }) => ({
    validator: (_, v: string[] | undefined) =>
      ((getFieldValue('grantTypes') as string[] | undefined) ?? []).some((g) => USER_GRANTS.includes(g)) &&
      !v?.includes('openid')
        ? Promise.reject(new Error(t('admin.oidcClients.openidRequired')))
        : Promise.resolve(),
  });

  async function save(v: Values) {
    const fields = {
      name: v.name.trim(),
      nameEn: v.nameEn?.trim() ?? '',
      grantTypes: v.grantTypes as OidcClientInput['grantTypes'],
      redirectUris: lines(v.redirectUris),
      postLogoutRedirectUris: lines(v.postLogoutRedirectUris),
      backchannelLogoutUri: v.backchannelLogoutUri?.trim() || null,
      scopes: v.scopes as OidcClientInput['scopes'],
      firstParty: v.firstParty,
      idTokenAlg: v.idTokenAlg as OidcClientInput['idTokenAlg'],
      serviceAccount: mayServe && v.serviceAccount,
      serviceRoleId: mayServe && v.serviceAccount ? (v.serviceRoleId ?? null) : null,
    };
    if (existing) {
      if (await run(() => patch(idPath(CLIENTS, existing.id), fields), t('admin.saved'))) onClose();
      return;
    }
    const name = nameOf(fields.name, fields.nameEn);
    const done = await run(
      () => post<OidcClientCreated>(CLIENTS, { ...fields, confidential: v.confidential }),
      v.confidential ? t('admin.created') : t('admin.oidcClients.createdPublic', { name }),
    );
    if (!done) return;
    onClose();
    if (done.value.secret) onSecret({ name, clientId: done.value.clientId, secret: done.value.secret });
  }

  return (
    <FormDrawer
      open={editing !== null}
      title={
        existing
          ? t('admin.oidcClients.edit', { name: nameOf(existing.name, existing.nameEn) })
          : t('admin.oidcClients.create')
      }
      busy={busy}
      width={600}
      onClose={onClose}
      onSave={() => form.submit()}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{
          confidential: true,
          grantTypes: ['authorization_code', 'refresh_token'],
          scopes: ['openid', 'profile'],
          firstParty: false,
          idTokenAlg: 'ES256',
          serviceAccount: false,
        }}
        onFinish={(v) => void save(v)}
      >
        <Form.Item
          name="name"
          label={t('admin.oidcClients.name')}
          rules={[requiredText('admin.nameRequired'), maxLength(100)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="nameEn" label={t('admin.nameEn')} rules={[maxLength(100)]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="confidential"
          label={t('admin.oidcClients.type')}
          extra={
            existing
              ? t('admin.oidcClients.typeFixed')
              : t(`admin.oidcClients.typeHelp.${confidential ? 'confidential' : 'public'}`)
          }
        >
          <Radio.Group
            disabled={!!existing}
            options={[
              { value: true, label: t('admin.oidcClients.types.confidential') },
              { value: false, label: t('admin.oidcClients.types.public') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="grantTypes"
          label={t('admin.oidcClients.grantTypes')}
          extra={t('admin.oidcClients.grantsHelp')}
          // A validator, not `required`: antd would put aria-required on the group's div, which has no role to take it.
          dependencies={['confidential']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, v: string[] | undefined) => {
                const fail = (key: string) => Promise.reject(new Error(t(`admin.oidcClients.${key}`)));
                if (!v?.length) return fail('grantsRequired');
                if (v.includes('client_credentials') && getFieldValue('confidential') === false)
                  return fail('clientCredentialsPublic');
                if (v.includes('refresh_token') && !v.some((g) => USER_GRANTS.includes(g))) return fail('refreshAlone');
                return Promise.resolve();
              },
            }),
          ]}
        >
          <Checkbox.Group
            options={OIDC_GRANT_TYPES.map((g) => ({
              value: g,
              label: t(`admin.oidcClients.grants.${g}`),
              disabled: g === 'client_credentials' && !(existing?.confidential ?? confidential),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="redirectUris"
          label={t('admin.oidcClients.redirectUris')}
          extra={t('admin.oidcClients.urisHelp')}
          dependencies={['grantTypes']}
          rules={[uris, redirectRequired]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} placeholder="https://app.example.com/callback" />
        </Form.Item>
        <Form.Item name="postLogoutRedirectUris" label={t('admin.oidcClients.postLogoutRedirectUris')} rules={[uris]}>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 8 }} placeholder="https://app.example.com/" />
        </Form.Item>
        <Form.Item
          name="backchannelLogoutUri"
          label={t('admin.oidcClients.backchannelLogoutUri')}
          extra={t('admin.oidcClients.backchannelHelp')}
          rules={[oneUri, maxLength(1024)]}
        >
          <Input autoComplete="off" placeholder="https://app.example.com/backchannel-logout" />
        </Form.Item>
        <Form.Item
          name="scopes"
          label={t('admin.oidcClients.scopes')}
          extra={t('admin.oidcClients.scopesHelp')}
          dependencies={['grantTypes']}
          rules={[openidRequired]}
        >
          <Checkbox.Group options={OIDC_SCOPES.map((s) => ({ value: s, label: s }))} />
        </Form.Item>
        <Form.Item name="firstParty" label={t('admin.oidcClients.firstParty')} valuePropName="checked">
          <Checkbox>{t('admin.oidcClients.firstPartyHelp')}</Checkbox>
        </Form.Item>
        <Form.Item name="idTokenAlg" label={t('admin.oidcClients.idTokenAlg')}>
          <Radio.Group options={OIDC_ID_TOKEN_ALGS.map((a) => ({ value: a, label: a }))} />
        </Form.Item>
        <Form.Item
          name="serviceAccount"
          label={t('admin.oidcClients.serviceAccount')}
          valuePropName="checked"
          extra={t(mayServe ? 'admin.oidcClients.serviceAccountHelp' : 'admin.oidcClients.serviceAccountNeeds')}
        >
          <Switch
            disabled={!mayServe}
            aria-label={t('admin.oidcClients.serviceAccount')}
            checkedChildren={t('admin.oidcClients.on')}
            unCheckedChildren={t('admin.oidcClients.off')}
          />
        </Form.Item>
        {mayServe && serviceAccount ? (
          <Form.Item
            name="serviceRoleId"
            label={t('admin.oidcClients.serviceRole')}
            extra={t('admin.oidcClients.serviceRoleHelp')}
            // A validator, not `required`: antd would put aria-required on the select's wrapper, which has no role to take it.
            rules={[
              {
                validator: (_, v: string | null | undefined) =>
                  v ? Promise.resolve() : Promise.reject(new Error(t('admin.oidcClients.serviceRoleRequired'))),
              },
            ]}
          >
            <Select<string>
              showSearch
              loading={roles.isPending}
              optionFilterProp="label"
              placeholder={t('admin.oidcClients.serviceRolePick')}
              options={(roles.data ?? []).map((r) => ({ value: r.id, label: nameOf(r.title, r.titleEn) }))}
            />
          </Form.Item>
        ) : null}
      </Form>
    </FormDrawer>
  );
}

import { DeleteOutlined, EditOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { PASSKEYS_PER_PERSON, type PasskeyItem } from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Grid, Input, List, Modal, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../../lib/api/client';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import '../../../locales/passkeys';
import {
  PasskeyCancelled,
  addPasskey,
  listPasskeys,
  passkeysSupported,
  removePasskey,
  renamePasskey,
} from '../api/passkeys';

const KEY = ['passkeys'];

/** The server's China time (`YYYY-MM-DD HH:mm:ss`, as every time the portal shows), to the minute. */
const when = (at: string | null): string => (at ? at.slice(0, 16) : '—');

/** A name for a new passkey, from what the browser says it runs on. */
function deviceName(): string {
  const ua = navigator.userAgent;
  const os = /iPhone|iPad/.test(ua)
    ? 'iPhone'
    : /Android/.test(ua)
      ? 'Android'
      : /Mac OS X/.test(ua)
        ? 'Mac'
        : /Windows/.test(ua)
          ? 'Windows'
          : 'Linux';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Chrome\//.test(ua)
      ? 'Chrome'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : 'Safari';
  return `${browser} · ${os}`;
}

/** Asks for a name (adding or renaming); resolves with it, or null when cancelled. */
function NameDialog({
  open,
  title,
  initial,
  busy,
  onOk,
  onCancel,
}: {
  open: boolean;
  title: string;
  initial: string;
  busy: boolean;
  onOk: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [shownFor, setShownFor] = useState(initial);
  if (shownFor !== initial) {
    setShownFor(initial);
    setName(initial);
  }
  const ok = () => name.trim() && onOk(name.trim());
  return (
    <Modal
      open={open}
      title={title}
      okText={t('passkeys.save')}
      cancelText={t('passkeys.cancel')}
      confirmLoading={busy}
      okButtonProps={{ disabled: !name.trim() }}
      onOk={ok}
      onCancel={onCancel}
      destroyOnHidden
    >
      <label htmlFor="passkey-name">{t('passkeys.name')}</label>
      <Input
        id="passkey-name"
        autoFocus
        maxLength={64}
        value={name}
        onChange={(e) => setName(e.target.value)}
        onPressEnter={ok}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {t('passkeys.nameHint')}
      </Typography.Paragraph>
    </Modal>
  );
}

/**
 * 账户安全 → 通行密钥: the person's passkeys (name, when added, when last used), add one on this
 * device, rename, remove. A section of the account security page (composed by its route).
 */
export function PasskeysSection() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: listPasskeys });
  const [dialog, setDialog] = useState<{ mode: 'add' } | { mode: 'rename'; item: PasskeyItem } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: KEY });
  const failed = (err: unknown) => {
    if (err instanceof PasskeyCancelled) return setProblem(t('passkeys.cancelled'));
    if (err instanceof ApiError && err.shown) return;
    setProblem(err instanceof ApiError ? err.message : t('passkeys.addFailed'));
  };
  const add = useMutation({
    mutationFn: (name: string) => addPasskey(name),
    onSuccess: () => {
      setDialog(null);
      toast('success', t('passkeys.added'));
      return refresh();
    },
    onError: (err) => {
      setDialog(null);
      failed(err);
    },
  });
  const rename = useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => renamePasskey(id, name),
    onSuccess: () => {
      setDialog(null);
      return refresh();
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (id: number) => removePasskey(id),
    onSuccess: () => {
      toast('success', t('passkeys.removed'));
      return refresh();
    },
    onError: failed,
  });
  const items = list.data ?? [];
  const full = items.length >= PASSKEYS_PER_PERSON;
  const supported = passkeysSupported();
  // On a phone the actions go under the passkey, which keeps the whole width.
  const narrow = Grid.useBreakpoint().sm === false;

  return (
    <Card
      title={
        <Space>
          <KeyOutlined />
          {t('passkeys.title')}
        </Space>
      }
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={!supported || full}
          onClick={() => {
            setProblem(null);
            setDialog({ mode: 'add' });
          }}
        >
          {t('passkeys.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('passkeys.intro')}</Typography.Paragraph>
      {!supported ? (
        <Alert type="info" showIcon message={t('passkeys.unsupported')} style={{ marginBottom: 16 }} />
      ) : null}
      {problem ? (
        <Alert
          type="warning"
          showIcon
          closable
          message={problem}
          onClose={() => setProblem(null)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {list.isError ? <Alert type="error" showIcon message={(list.error as Error).message} /> : null}
      <List
        itemLayout={narrow ? 'vertical' : 'horizontal'}
        loading={list.isPending}
        dataSource={items}
        locale={{ emptyText: t('passkeys.empty') }}
        renderItem={(item) => (
          <List.Item
            actions={[
              <Button
                key="rename"
                type="link"
                icon={<EditOutlined />}
                aria-label={t('passkeys.renameOf', { name: item.name })}
                onClick={() => setDialog({ mode: 'rename', item })}
              >
                {t('passkeys.rename')}
              </Button>,
              <Popconfirm
                key="remove"
                title={t('passkeys.removeConfirm', { name: item.name })}
                description={t('passkeys.removeHint')}
                okText={t('passkeys.remove')}
                cancelText={t('passkeys.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => remove.mutateAsync(item.id).catch(() => undefined)}
              >
                <Button
                  type="link"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('passkeys.removeOf', { name: item.name })}
                >
                  {t('passkeys.remove')}
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              avatar={<KeyOutlined style={{ fontSize: 20, color: '#0958d9' }} />}
              title={
                <Space wrap size={4}>
                  <span>{item.name}</span>
                  {item.passwordless ? <Tag color="blue">{t('passkeys.passwordless')}</Tag> : null}
                  {item.backedUp ? <Tag>{t('passkeys.synced')}</Tag> : null}
                </Space>
              }
              description={
                <Space wrap size={[16, 0]}>
                  <span>{t('passkeys.createdAt', { at: when(item.createdAt) })}</span>
                  <span>{t('passkeys.lastUsedAt', { at: when(item.lastUsedAt) })}</span>
                </Space>
              }
            />
          </List.Item>
        )}
      />
      {full ? (
        <Typography.Text type="secondary">{t('passkeys.full', { max: PASSKEYS_PER_PERSON })}</Typography.Text>
      ) : null}
      <NameDialog
        open={dialog !== null}
        title={dialog?.mode === 'rename' ? t('passkeys.renameTitle') : t('passkeys.addTitle')}
        initial={dialog?.mode === 'rename' ? dialog.item.name : deviceName()}
        busy={add.isPending || rename.isPending}
        onCancel={() => setDialog(null)}
        onOk={(name) => {
          if (dialog?.mode === 'rename') rename.mutate({ id: dialog.item.id, name });
          else add.mutate(name);
        }}
      />
    </Card>
  );
}

import { KeyOutlined, SettingOutlined, TeamOutlined } from '@ant-design/icons';
import { Form, Input, message, Modal, Radio, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { required } from '../../../components/form-rules';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { getRoles, switchRole, updateNickName, updatePassword } from '../api/account';
import './account-dialogs.css';
import { storage } from '../../../lib/storage';

export interface UserMenu {
  items: { key: string; icon: ReactNode; label: string }[];
  onSelect: (key: string) => void;
}

const warn = (err: unknown) => void message.warning(err instanceof Error ? err.message : String(err));

function PasswordDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ oldPwd: string; password: string; repeat: string }>();
  const [pending, setPending] = useState(false);
  const user = useSession((s) => s.userInfo);
  return (
    <Modal
      open
      title={t('switching.password')}
      onCancel={onClose}
      okButtonProps={{ loading: pending }}
      onOk={async () => {
        // §8: the dialog warns when no user is known.
        if (!user) return void message.warning(t('switching.noUser'));
        const v = await form.validateFields().catch(() => null);
        if (!v) return;
        setPending(true);
        try {
          await updatePassword(v.oldPwd, v.password);
          void message.success(t('switching.passwordChanged'));
          onClose();
        } catch (err) {
          warn(err);
        } finally {
          setPending(false);
        }
      }}
    >
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="oldPwd" label={t('account.oldPassword')} rules={[required('account.oldRequired')]}>
          <Input.Password maxLength={64} autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields
          form={form}
          label={t('account.newPassword')}
          repeatLabel={t('account.repeat')}
          username={() => user?.username}
        />
      </Form>
    </Modal>
  );
}

function NicknameDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.userInfo);
  const [form] = Form.useForm<{ nickName: string }>();
  const [pending, setPending] = useState(false);
  return (
    <Modal
      open
      title={t('switching.accountSetting')}
      onCancel={onClose}
      okButtonProps={{ loading: pending }}
      onOk={async () => {
        const v = await form.validateFields().catch(() => null);
        if (!v || !user) return;
        setPending(true);
        try {
          await updateNickName(user.userId, v.nickName.trim());
          void message.success(t('switching.saved'));
          onClose();
        } catch (err) {
          warn(err);
        } finally {
          setPending(false);
        }
      }}
    >
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ nickName: user?.name ?? '' }}>
        <Form.Item name="nickName" label={t('switching.nickname')} rules={[required('switching.nicknameRequired')]}>
          <Input maxLength={32} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The role switch (spec §4): unchanged → it just closes; else a new token and a reload. */
function RoleDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.userInfo);
  const roles = useQuery({ queryKey: ['roles', user?.userId], queryFn: () => getRoles(user!.userId), enabled: !!user });
  const current = storage.get<string>('roleCode') ?? user?.defaultRoleId ?? undefined;
  const [chosen, setChosen] = useState<string | undefined>(current ?? undefined);
  const [pending, setPending] = useState(false);
  return (
    <Modal
      open
      title={t('switching.role')}
      onCancel={onClose}
      okButtonProps={{ loading: pending, disabled: !chosen }}
      onOk={async () => {
        if (!chosen || chosen === current) return onClose();
        setPending(true);
        try {
          await switchRole(chosen);
        } catch (err) {
          warn(err);
          setPending(false);
        }
      }}
    >
      {roles.isPending ? (
        <Spin />
      ) : (
        <Radio.Group
          className="switch-options"
          value={chosen}
          onChange={(e) => setChosen(e.target.value as string)}
          options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.title }))}
        />
      )}
    </Modal>
  );
}

const DIALOGS = { password: PasswordDialog, nickname: NicknameDialog, role: RoleDialog } as const;

/** The user drop-down's account entries (spec §2 screen 7) and their dialogs. */
export function useAccountMenu(): { menu: UserMenu; dialogs: ReactNode } {
  const { t } = useTranslation();
  const [open, setOpen] = useState<keyof typeof DIALOGS | null>(null);
  const close = () => setOpen(null);
  const DialogOf = open ? DIALOGS[open] : null;
  return {
    menu: {
      items: [
        { key: 'password', icon: <KeyOutlined />, label: t('switching.password') },
        { key: 'nickname', icon: <SettingOutlined />, label: t('switching.accountSetting') },
        { key: 'role', icon: <TeamOutlined />, label: t('switching.role') },
      ],
      onSelect: (key) => setOpen(key in DIALOGS ? (key as keyof typeof DIALOGS) : null),
    },
    dialogs: DialogOf ? <DialogOf onClose={close} /> : null,
  };
}

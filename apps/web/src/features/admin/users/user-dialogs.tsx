/** The users page's forms: a new user or an edited one, a new password, roles, enterprises. */
import type { AdminUser, UserCreate, UserPatch } from '@portal/contracts';
import { Form, Input, Modal } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { encryptPassword } from '../../../lib/api/password';
import { useTranslation } from '../../../lib/i18n';
import { personNameRule, usernameRule } from '../../../components/form-rules';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { idPath, patch, post, put, useChange } from '../api/admin';
import { FormDrawer, usePhone } from '../components/console';
import { TemporaryField } from '../components/temporary-field';
import { EnterprisesSelect, RolesSelect } from '../components/pickers';
import { optionalMobile } from '../components/rules';

const USERS = '/api/admin/users';

interface UserValues {
  username: string;
  name: string;
  nameEn?: string;
  mobile?: string;
  password: string;
  repeat: string;
  temporary: boolean;
  roleIds?: string[];
  enterpriseIds?: string[];
}

/** A new user (`user` null), or the user name, name, English name and mobile of one. */
export function UserDrawer({ open, user, onClose }: { open: boolean; user: AdminUser | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<UserValues>();
  const { busy, run } = useChange();
  useEffect(() => {
    if (open && user)
      form.setFieldsValue({ username: user.username, name: user.name, nameEn: user.nameEn, mobile: user.mobile ?? '' });
  }, [open, user, form]);

  async function save(v: UserValues) {
    const mobile = v.mobile?.trim() || null;
    // A rename only when the name changed: it is how a name the grammar reports is mended.
    const username = v.username.trim();
    const done = user
      ? await run(
          () =>
            patch(idPath(USERS, user.id), {
              ...(username !== user.username ? { username } : {}),
              name: v.name.trim(),
              nameEn: v.nameEn?.trim() ?? '',
              mobile,
            } satisfies UserPatch),
          t('admin.saved'),
        )
      : await run(
          async () =>
            post<string>(USERS, {
              username: v.username.trim(),
              name: v.name.trim(),
              nameEn: v.nameEn?.trim() ?? '',
              mobile,
              password: await encryptPassword(v.password),
              temporary: v.temporary,
              roleIds: v.roleIds ?? [],
              enterpriseIds: v.enterpriseIds ?? [],
            } satisfies UserCreate),
          t('admin.created'),
        );
    if (done) onClose();
  }

  return (
    <FormDrawer
      open={open}
      title={user ? t('admin.users.edit', { name: user.username }) : t('admin.users.create')}
      busy={busy}
      onClose={onClose}
      onSave={() => form.submit()}
    >
      <Form<UserValues>
        form={form}
        layout="vertical"
        preserve={false}
        className="admin-user-form"
        onFinish={(v) => void save(v)}
      >
        <Form.Item
          name="username"
          label={t('admin.users.username')}
          rules={[{ required: true, whitespace: true, message: t('forms.usernameRequired') }, usernameRule]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('admin.users.name')}
          rules={[
            { required: true, whitespace: true, message: t('admin.users.nameRequired') },
            { max: 64, message: t('admin.tooLong', { max: 64 }) },
            personNameRule(),
          ]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="nameEn"
          label={t('admin.nameEn')}
          rules={[{ max: 64, message: t('admin.tooLong', { max: 64 }) }, personNameRule()]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="mobile" label={t('admin.users.mobile')} rules={[optionalMobile]}>
          <Input inputMode="tel" maxLength={20} />
        </Form.Item>
        {user ? null : (
          <>
            <NewPasswordFields
              form={form}
              label={t('admin.users.password')}
              repeatLabel={t('admin.users.repeat')}
              username={() => form.getFieldValue('username') as string | undefined}
            />
            <TemporaryField />
            <Form.Item name="roleIds" label={t('admin.users.roles')}>
              <RolesSelect />
            </Form.Item>
            <Form.Item name="enterpriseIds" label={t('admin.users.enterprises')}>
              <EnterprisesSelect />
            </Form.Item>
          </>
        )}
      </Form>
    </FormDrawer>
  );
}

/** A dialog with one form, full width on a phone. */
function FormModal({
  open,
  title,
  busy,
  onClose,
  onOk,
  children,
}: {
  open: boolean;
  title: string;
  busy: boolean;
  onClose: () => void;
  onOk: () => void;
  children: ReactNode;
}) {
  const phone = usePhone();
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={onOk}
      confirmLoading={busy}
      destroyOnHidden
      width={phone ? '100%' : 520}
      centered={phone}
    >
      {children}
    </Modal>
  );
}

/** A new password for a user (RSA-encrypted on the way, like every password). */
export function PasswordDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string; repeat: string; temporary: boolean }>();
  const { busy, run } = useChange();
  return (
    <FormModal
      open={user !== null}
      title={t('admin.users.resetTitle', { name: user?.username ?? '' })}
      busy={busy}
      onClose={onClose}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={async (v) => {
          const done = await run(
            async () =>
              post(idPath(USERS, user!.id, 'password'), {
                password: await encryptPassword(v.password),
                temporary: v.temporary,
              }),
            t('admin.users.passwordSet'),
          );
          if (done) onClose();
        }}
      >
        <NewPasswordFields
          form={form}
          label={t('admin.users.newPassword')}
          repeatLabel={t('admin.users.repeat')}
          username={() => user?.username}
        />
        <TemporaryField />
      </Form>
    </FormModal>
  );
}

/** The roles (or the enterprises) of a user, all at once. */
export function MembershipDialog({
  user,
  kind,
  onClose,
}: {
  user: AdminUser | null;
  kind: 'roles' | 'enterprises';
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ ids: string[] }>();
  const { busy, run } = useChange();
  const initial = user ? (kind === 'roles' ? user.roles : user.enterprises) : [];
  return (
    <FormModal
      open={user !== null}
      title={t(kind === 'roles' ? 'admin.users.rolesTitle' : 'admin.users.enterprisesTitle', {
        name: user?.username ?? '',
      })}
      busy={busy}
      onClose={onClose}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ ids: initial.map((r) => r.id) }}
        onFinish={async (v) => {
          const body = kind === 'roles' ? { roleIds: v.ids ?? [] } : { enterpriseIds: v.ids ?? [] };
          const done = await run(() => put(idPath(USERS, user!.id, kind), body), t('admin.saved'));
          if (done) onClose();
        }}
      >
        <Form.Item name="ids" label={t(kind === 'roles' ? 'admin.users.roles' : 'admin.users.enterprises')}>
          {kind === 'roles' ? <RolesSelect /> : <EnterprisesSelect known={initial} />}
        </Form.Item>
      </Form>
    </FormModal>
  );
}

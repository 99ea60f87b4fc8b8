/** A menu entry's form: a new one (at the top or under a parent) or an edited one. */
import { MENU_PATH, MenuCreate, type AdminMenu, type AdminNamed, type MenuPatch } from '@portal/contracts';
import { AutoComplete, Form, Input, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { idPath, patch, post, useAdminQuery, useChange } from '../api/admin';
import { FormDrawer, useNameOf } from '../components/console';
import { RolesSelect } from '../components/pickers';
import { maxLength, pattern, requiredText } from '../components/rules';

const MENUS = '/api/admin/menus';

/** A field's pattern in the contracts' MenuCreate schema (inside a nullable union too). */
function patternOf(field: string): string {
  const schema = (MenuCreate.properties as Record<string, { pattern?: string; anyOf?: { pattern?: string }[] }>)[field];
  return schema?.pattern ?? schema?.anyOf?.find((s) => s.pattern)?.pattern ?? '';
}
const NAME = patternOf('name');
const COMPONENT = patternOf('component');
const ICON = patternOf('icon');

/** Components the portal knows (docs/product/screens.md#menu-routes and the business pages); any other may be typed. */
const COMPONENTS = [
  'RouteView',
  'IframePageView',
  'DragPageView',
  'ent/colist',
  'ent/members/list',
  'ent/members/invite',
  'message/index',
  'page/builder',
  'admin/users',
  'admin/roles',
  'admin/menus',
  'admin/enterprises',
  'admin/notices',
  'admin/directory',
  'admin/sign-on',
  'admin/oidc-clients',
  'admin/online-users',
  'admin/login-history',
  'admin/settings',
  'admin/sms',
  'admin/audit',
  'admin/tenants',
];
/** The icons the shell draws (features/shell/components/icons.tsx); another name shows a page icon. */
const ICONS = [
  'ApartmentOutlined',
  'AppstoreOutlined',
  'AuditOutlined',
  'BankOutlined',
  'BellOutlined',
  'ClusterOutlined',
  'ControlOutlined',
  'DashboardOutlined',
  'DesktopOutlined',
  'FileSearchOutlined',
  'HistoryOutlined',
  'FormOutlined',
  'HomeOutlined',
  'IdcardOutlined',
  'KeyOutlined',
  'LinkOutlined',
  'LoginOutlined',
  'MenuOutlined',
  'MessageOutlined',
  'NotificationOutlined',
  'ReadOutlined',
  'SafetyCertificateOutlined',
  'SettingOutlined',
  'ShopOutlined',
  'TeamOutlined',
  'UserOutlined',
];

interface Values {
  title: string;
  titleEn?: string;
  name: string;
  path: string;
  component?: string;
  icon?: string;
  url?: string;
  hidden?: boolean;
  applicationId?: string | null;
  roleIds?: string[];
}

export function MenuDrawer({
  editing,
  onClose,
  onCreated,
}: {
  editing: { kind: 'edit'; menu: AdminMenu } | { kind: 'create'; parent: AdminMenu | null } | null;
  onClose: () => void;
  /** A new entry was made (its id), under `parentId`. */
  onCreated: (id: string, parentId: string | null) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const nameOf = useNameOf();
  const { busy, run } = useChange();
  const apps = useAdminQuery<AdminNamed[]>('/api/admin/applications', {}, { enabled: editing !== null });
  const menu = editing?.kind === 'edit' ? editing.menu : null;
  const parent = editing?.kind === 'create' ? editing.parent : null;

  useEffect(() => {
    if (!editing) return;
    if (menu) {
      form.setFieldsValue({
        ...menu,
        icon: menu.icon ?? '',
        url: menu.url ?? '',
      });
    } else {
      form.setFieldsValue({
        path: parent ? `${parent.path.replace(/\/$/, '')}/` : '/',
        component: parent ? '' : 'RouteView',
        applicationId: parent?.applicationId ?? null,
        roleIds: parent?.roleIds ?? [],
        hidden: false,
      });
    }
  }, [editing, menu, parent, form]);

  async function save(v: Values) {
    const fields = {
      title: v.title.trim(),
      titleEn: v.titleEn?.trim() ?? '',
      name: v.name.trim(),
      path: v.path.trim(),
      component: v.component?.trim() ?? '',
      icon: v.icon?.trim() || null,
      url: v.url?.trim() || null,
      hidden: v.hidden ?? false,
      applicationId: v.applicationId ?? null,
      roleIds: v.roleIds ?? [],
    } satisfies MenuPatch;
    if (menu) {
      if (await run(() => patch(idPath(MENUS, menu.id), fields), t('admin.saved'))) onClose();
      return;
    }
    const made = await run(
      () => post<string>(MENUS, { parentId: parent?.id ?? null, ...fields } satisfies MenuCreate),
      t('admin.created'),
    );
    if (made) {
      onCreated(made.value, parent?.id ?? null);
      onClose();
    }
  }

  const title = menu
    ? t('admin.menus.edit', { name: nameOf(menu.title, menu.titleEn) })
    : parent
      ? t('admin.menus.createUnder', { name: nameOf(parent.title, parent.titleEn) })
      : t('admin.menus.createTop');
  return (
    <FormDrawer open={editing !== null} title={title} busy={busy} onClose={onClose} onSave={() => form.submit()}>
      <Form<Values> form={form} layout="vertical" preserve={false} onFinish={(v) => void save(v)}>
        <Form.Item
          name="title"
          label={t('admin.menus.title')}
          rules={[requiredText('admin.titleRequired'), maxLength(64)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="titleEn" label={t('admin.titleEn')} rules={[maxLength(64)]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('admin.menus.name')}
          extra={t('admin.menus.nameHelp')}
          rules={[requiredText('admin.menus.nameRequired'), pattern(NAME, 'admin.menus.nameInvalid')]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="path"
          label={t('admin.menus.path')}
          rules={[requiredText('admin.menus.pathRequired'), pattern(MENU_PATH, 'admin.menus.pathInvalid')]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="component"
          label={t('admin.menus.component')}
          extra={t('admin.menus.componentHelp')}
          rules={[pattern(COMPONENT, 'admin.menus.componentInvalid')]}
        >
          <AutoComplete
            options={COMPONENTS.map((c) => ({ value: c }))}
            filterOption={(input, option) => String(option?.value ?? '').includes(input)}
          />
        </Form.Item>
        <Form.Item name="icon" label={t('admin.menus.icon')} rules={[pattern(ICON, 'admin.menus.iconInvalid')]}>
          <AutoComplete
            allowClear
            options={ICONS.map((c) => ({ value: c }))}
            filterOption={(input, option) =>
              String(option?.value ?? '')
                .toLowerCase()
                .includes(input.toLowerCase())
            }
          />
        </Form.Item>
        <Form.Item name="url" label={t('admin.menus.url')} extra={t('admin.menus.urlHelp')} rules={[maxLength(1024)]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="applicationId" label={t('admin.menus.application')} extra={t('admin.menus.applicationHelp')}>
          <Select
            allowClear
            loading={apps.isPending}
            placeholder={t('admin.menus.anyApplication')}
            options={(apps.data ?? []).map((a) => ({ value: a.id, label: `${nameOf(a.name, a.nameEn)} (${a.code})` }))}
          />
        </Form.Item>
        <Form.Item name="roleIds" label={t('admin.menus.roles')} extra={t('admin.menus.rolesHelp')}>
          <RolesSelect />
        </Form.Item>
        <Form.Item name="hidden" label={t('admin.menus.hiddenLabel')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}

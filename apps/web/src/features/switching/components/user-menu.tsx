import {
  AppstoreOutlined,
  BankOutlined,
  DesktopOutlined,
  IdcardOutlined,
  KeyOutlined,
  SafetyOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { runtimeConfig } from '../../../lib/config';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { fixedBench } from '../fixed-bench';

// The dialogs load when one is opened, not with every signed-in page (the table alone is ~50 KB gzip).
const accountDialogs = () => import('./account-dialogs');
const contextDialogs = () => import('./context-dialogs');
const NicknameDialog = lazy(() => accountDialogs().then((m) => ({ default: m.NicknameDialog })));
const PasswordDialog = lazy(() => accountDialogs().then((m) => ({ default: m.PasswordDialog })));
const RoleDialog = lazy(() => contextDialogs().then((m) => ({ default: m.RoleDialog })));
const ApplicationDialog = lazy(() => contextDialogs().then((m) => ({ default: m.ApplicationDialog })));
const WorkbenchDialog = lazy(() => contextDialogs().then((m) => ({ default: m.WorkbenchDialog })));
const EnterpriseDialog = lazy(() => import('./enterprise-dialog').then((m) => ({ default: m.EnterpriseDialog })));

export interface UserMenu {
  items: { key: string; icon: ReactNode; label: string }[];
  onSelect: (key: string) => void;
}

/** What the app gives the switching feature from the shell, which features may not import. */
export interface ShellHooks {
  /** Forgets the saved tabs (an enterprise switch). */
  clearTabs: () => void;
  /** The in-app path of the menu entry whose path contains `fragment`, or null. */
  menuPathContaining: (fragment: string) => string | null;
}

/** 账户安全: the shell's fixed page of the person's sign-ins, history and factors. */
const ACCOUNT_SECURITY = '/account/security';

const DIALOGS = {
  nickname: NicknameDialog,
  password: PasswordDialog,
  role: RoleDialog,
  application: ApplicationDialog,
  workbench: WorkbenchDialog,
} as const;
type DialogKey = keyof typeof DIALOGS | 'enterprise';

/**
 * The user drop-down's account entries (docs/product/screens.md#account-dialogs) and their dialogs: 切换应用 only when
 * configured, 切换工作台 when the workbench is on, 切换企业 not with a fixed workbench code, and
 * 企业信息 (the menu entry whose path contains ent/colist) under the colist permission (docs/product/permissions.md#action-codes).
 */
export function useAccountMenu(shell: ShellHooks): { menu: UserMenu; dialogs: ReactNode } {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState<DialogKey | null>(null);
  const mayViewEnterprise = usePermission('colist');
  const cfg = runtimeConfig();
  const close = () => setOpen(null);

  const entries: [DialogKey | 'enterpriseInfo' | 'security', ReactNode, string, boolean][] = [
    ['nickname', <SettingOutlined />, t('switching.accountSetting'), true],
    ['password', <KeyOutlined />, t('switching.password'), true],
    ['security', <SafetyOutlined />, t('switching.accountSecurity'), true],
    ['role', <TeamOutlined />, t('switching.role'), true],
    ['application', <AppstoreOutlined />, t('switching.application'), cfg.appSwitch],
    ['workbench', <DesktopOutlined />, t('switching.workbench'), cfg.workbenchEnabled],
    ['enterprise', <BankOutlined />, t('switching.enterprise'), !fixedBench()],
    ['enterpriseInfo', <IdcardOutlined />, t('switching.enterpriseInfo'), mayViewEnterprise],
  ];

  const onSelect = (key: string) => {
    if (key === 'security') return void navigate(ACCOUNT_SECURITY);
    if (key !== 'enterpriseInfo') return setOpen(key in DIALOGS || key === 'enterprise' ? (key as DialogKey) : null);
    const path = shell.menuPathContaining('ent/colist');
    if (path) navigate(path);
    else toast('warning', t('switching.enterpriseInfoMissing'));
  };

  const Dialog = open && open !== 'enterprise' ? DIALOGS[open] : null;
  return {
    menu: {
      items: entries.filter(([, , , shown]) => shown).map(([key, icon, label]) => ({ key, icon, label })),
      onSelect,
    },
    dialogs: (
      <Suspense fallback={null}>
        {open === 'enterprise' ? (
          <EnterpriseDialog onClose={close} clearTabs={shell.clearTabs} />
        ) : Dialog ? (
          <Dialog onClose={close} />
        ) : null}
      </Suspense>
    ),
  };
}

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { storage } from '../../../lib/storage';
import {
  getApplications,
  getRoles,
  getWorkbenches,
  setDefaultApply,
  setDefaultLogin,
  switchContext,
} from '../api/account';
import { fixedBench } from '../fixed-bench';
import { ChoiceDialog } from './choice-dialog';

/** 切换角色: the caller's roles (getUserRolesNew); another one switches, which reloads the menus. */
export function RoleDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.userInfo);
  const roles = useQuery({ queryKey: ['roles', user?.userId], queryFn: () => getRoles(user!.userId), enabled: !!user });
  return (
    <ChoiceDialog
      title={t('switching.role')}
      options={roles.data?.map((r) => ({ id: r.id, label: r.title }))}
      error={user ? roles.error : new Error(t('switching.noUser'))}
      current={user?.roleId ?? user?.defaultRoleId ?? null}
      defaultId={user?.defaultRoleId ?? null}
      canSetDefault={!fixedBench()}
      onSwitch={(id) => switchContext({ roleId: id }, {})}
      onSetDefault={(id) => setDefaultLogin({ defaultRoleId: id })}
      onClose={onClose}
    />
  );
}

/** 切换应用 (shown only when `appSwitch` is configured): the applications granted. */
export function ApplicationDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.userInfo);
  const apps = useQuery({ queryKey: ['applications'], queryFn: getApplications });
  const code = (id: string) => apps.data?.find((a) => a.id === id)?.appCode ?? '';
  // The address's appCode filters the menu when present, so it names the current application.
  const stored = storage.get<string>('appCode');
  const current = apps.data?.find((a) => a.appCode === stored)?.id ?? user?.applyId ?? user?.defaultApplyId ?? null;
  return (
    <ChoiceDialog
      title={t('switching.application')}
      options={apps.data?.map((a) => ({ id: a.id, label: a.appName }))}
      error={apps.error}
      current={current}
      defaultId={user?.defaultApplyId ?? null}
      canSetDefault={!fixedBench()}
      onSwitch={(id) => switchContext({ applyId: id }, { appCode: code(id) })}
      onSetDefault={setDefaultApply}
      onClose={onClose}
    />
  );
}

/** 切换工作台: the workbenches held; with a fixed workbench code, only that one (docs/product/permissions.md#fixed-workbench). */
export function WorkbenchDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.userInfo);
  const benches = useQuery({ queryKey: ['workbenches'], queryFn: getWorkbenches });
  const fixed = fixedBench();
  const offered = fixed ? benches.data?.filter((b) => b.appCode === fixed) : benches.data;
  const code = (id: string) => benches.data?.find((b) => b.id === id)?.appCode ?? '';
  return (
    <ChoiceDialog
      title={t('switching.workbench')}
      options={offered?.map((b) => ({ id: b.id, label: b.appName }))}
      error={benches.error}
      current={user?.workbenchId ?? user?.defaultWorkbenchId ?? null}
      defaultId={user?.defaultWorkbenchId ?? null}
      canSetDefault={!fixed}
      onSwitch={(id) => switchContext({ workbenchId: id }, { workbenchCode: code(id) })}
      onSetDefault={(id) => setDefaultLogin({ defaultWorkbenchCode: code(id) })}
      onClose={onClose}
    />
  );
}

import {
  type ApplicationItem,
  type JoinedEnterprise,
  type OwnMobile,
  type RoleItem,
  type UserInfo,
  type WorkbenchItem,
} from '@portal/contracts';
import { keptParams } from '../../../lib/address';
import { request } from '../../../lib/api/client';
import { basename } from '../../../lib/config';
import { encryptPassword } from '../../../lib/api/password';
import { setToken, setUserInfo } from '../../../lib/session';
import { storage, type StorageKey } from '../../../lib/storage';

/** docs/product/errors.md#dialogs: nickname, switch and password calls show a refusal's message as a warning. */
const WARNED = { failures: 'warning' } as const;

/** The header's password dialog (docs/product/calls.md#call-list updatePassword): both passwords encrypted. */
export async function updatePassword(oldPwd: string, newPwd: string): Promise<void> {
  await request('/api/front/account/auth/updatePassword', {
    body: { oldPwd: await encryptPassword(oldPwd), newPwd: await encryptPassword(newPwd) },
    ...WARNED,
  });
}

/** After a change of the profile: the fresh user info in the session (the header shows it at once). */
async function refreshUserInfo(): Promise<void> {
  setUserInfo(await request<UserInfo>('/api/front/member/front/infoV2', {}));
}

/** The account setting dialog. */
export async function updateNickName(userId: string, nickName: string): Promise<void> {
  await request('/api/front/member/updateNickName', { body: { userId, nickName }, ...WARNED });
  await refreshUserInfo();
}

// ---- 验证手机号: the account's own number, which enterprise invitations need proven ----------------

export function getOwnMobile(): Promise<OwnMobile> {
  return request<OwnMobile>('/api/front/account/mobile', WARNED);
}

/** A code to the account's own number (the server never sends it to another). */
export async function sendOwnMobileCode(): Promise<void> {
  await request('/api/front/account/mobile/code', { body: {}, ...WARNED });
}

export async function proveOwnMobile(smsCode: string): Promise<void> {
  await request('/api/front/account/mobile/verify', { body: { smsCode }, ...WARNED });
}

// ---- What the caller holds ------------------------------------------------------------------

export function getRoles(userId: string): Promise<RoleItem[]> {
  return request<RoleItem[]>('/api/front/member/getUserRolesNew', { query: { userId }, ...WARNED });
}

export function getApplications(): Promise<ApplicationItem[]> {
  return request<ApplicationItem[]>('/api/front/apply/info/getNewApplyList', WARNED);
}

export function getWorkbenches(): Promise<WorkbenchItem[]> {
  return request<WorkbenchItem[]>('/api/front/member/getWorkbenchList', WARNED);
}

export function getJoinedEnterprises(
  page: number,
  limit: number,
): Promise<{ rows: JoinedEnterprise[]; total: number }> {
  return request('/api/front/ent/joinEntList', { query: { page, limit } });
}

// ---- Defaults for the next login (docs/product/permissions.md#defaults) ----------------------------------------------------

export async function setDefaultLogin(d: { defaultRoleId?: string; defaultWorkbenchCode?: string }): Promise<void> {
  await request('/api/front/member/front/updateDefaultLogin', { body: d, ...WARNED });
  await refreshUserInfo();
}

export async function setDefaultApply(defaultApplyId: string): Promise<void> {
  await request('/api/front/member/front/updateDefaultApply', { body: { defaultApplyId }, ...WARNED });
  await refreshUserInfo();
}

// ---- Switches ---------------------------------------------------------------------------------

/** The codes a switch stores, under the names that local storage (docs/product/data.md#local-storage) and the address (docs/product/screens.md#kept-parameters) use. */
type Chosen = Partial<Record<Extract<StorageKey, 'appCode' | 'workbenchCode'>, string>>;

/**
 * After a switch (docs/product/behaviour.md#switching): the server has answered a new token for the new context and refuses
 * the old one. The codes are stored (and replaced in the address, which would otherwise bring the
 * old ones back), then the page loads again, so user info and menus are fetched anew and no query
 * cache, tab page or kept-alive page of the previous context stays in memory. `home`: the app
 * starts again on its home page (an enterprise switch, whose saved tabs are cleared first).
 */
function enter(token: string, chosen: Chosen, home?: { clearTabs: () => void }): void {
  for (const [key, value] of Object.entries(chosen) as [keyof Chosen, string][]) {
    storage.set(key, value);
    if (key === 'appCode') storage.set('selectedAppCode', value);
  }
  setToken(token);
  const url = new URL(window.location.href);
  if (chosen.appCode && url.searchParams.has('appCode')) url.searchParams.set('appCode', chosen.appCode);
  if (home) {
    home.clearTabs();
    url.pathname = basename() === '/' ? '/' : `${basename()}/`;
    url.search = keptParams(url.search).toString();
    url.hash = '';
  }
  window.location.replace(url.toString());
}

/** Role, application or workbench (our switchContext): ids from the lists. */
export async function switchContext(
  target: { roleId?: string; applyId?: string; workbenchId?: string },
  chosen: Chosen,
): Promise<void> {
  const body = Object.fromEntries(Object.entries(target).map(([k, v]) => [k, Number(v)]));
  const token = await request<string>('/api/front/member/switchContext', { body, ...WARNED });
  enter(token, chosen);
}

/**
 * Enterprise (docs/product/calls.md#call-list switchEnterprises): the saved tabs belong to the old one; the app starts at
 * home. A refusal is an error with the server's message (docs/product/errors.md#dialogs), as for any call.
 */
export async function switchEnterprise(entId: string, clearTabs: () => void): Promise<void> {
  const token = await request<string>('/api/front/member/switchEnterprises', {
    method: 'PUT',
    body: { entId: Number(entId) },
  });
  enter(token, {}, { clearTabs });
}

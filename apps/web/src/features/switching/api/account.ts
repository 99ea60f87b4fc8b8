import type { RoleItem, UserInfo } from '@portal/contracts';
import { request } from '../../../lib/api/client';
import { encryptPassword } from '../../../lib/api/password';
import { setToken, setUserInfo } from '../../../lib/session';
import { storage } from '../../../lib/storage';

/** The header's password dialog (spec §7 updatePassword): both passwords encrypted. */
export async function updatePassword(oldPwd: string, newPwd: string): Promise<void> {
  await request('/api/front/account/auth/updatePassword', {
    body: { oldPwd: await encryptPassword(oldPwd), newPwd: await encryptPassword(newPwd) },
    silent: true,
  });
}

/** The account setting dialog: the new nickname, then the fresh user info in the session. */
export async function updateNickName(userId: string, nickName: string): Promise<void> {
  await request('/api/front/member/updateNickName', { body: { userId, nickName }, silent: true });
  setUserInfo(await request<UserInfo>('/api/front/member/front/infoV2', {}));
}

/** The caller's roles (getUserRolesNew). */
export function getRoles(userId: string): Promise<RoleItem[]> {
  return request<RoleItem[]>('/api/front/member/getUserRolesNew', { query: { userId }, silent: true });
}

/**
 * A switch (issue 7): the server answers a new token for the new context and refuses the old one;
 * the page then reloads, so nothing of the previous context stays in memory (spec §4).
 */
export async function switchRole(roleId: string): Promise<void> {
  const token = await request<string>('/api/front/member/switchContext', {
    body: { roleId: Number(roleId) },
    silent: true,
  });
  storage.set('roleCode', roleId);
  setToken(token);
  window.location.reload();
}

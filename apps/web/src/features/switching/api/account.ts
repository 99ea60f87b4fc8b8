import type { UserInfo } from '@portal/contracts';
import { request } from '../../../lib/api/client';
import { encryptPassword } from '../../../lib/api/password';
import { setUserInfo } from '../../../lib/session';

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

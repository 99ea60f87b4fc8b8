/**
 * The one place that turns a result code of docs/product/errors.md#result-codes into what the user sees, and into a logout
 * where docs/product/errors.md#result-codes says so. Several failures at once (a page firing parallel calls after the session ended)
 * give one notice and one logout.
 */
import { LIMITS, LOGOUT_CODES, ResultCode } from '@portal/contracts';
import { keptParams } from '../address';
import { basename } from '../config';
import { i18n } from '../i18n';
import { confirm, notifyError, toast } from '../feedback';
import { currentPath, logout, useSession } from '../session';

let loggedOutNoticeOpen = false;
let forcedLogoutPending = false;
let passwordChangePending = false;

/** The change-password page, for a session whose password someone else set (ADR 033). */
export const PASSWORD_CHANGE_PATH = '/user/register-result';

/**
 * A session that must change its password first can do nothing else (40305): to the change page,
 * which comes back here once it is done. One navigation, whatever number of calls were refused.
 */
function toPasswordChange() {
  const base = basename() === '/' ? '' : basename();
  if (passwordChangePending || window.location.pathname === `${base}${PASSWORD_CHANGE_PATH}`) return;
  passwordChangePending = true;
  const q = keptParams(window.location.search);
  q.set('required', '1');
  q.set('redirect', currentPath());
  window.location.replace(`${base}${PASSWORD_CHANGE_PATH}?${q}`);
}

function forcedLogout(text: string, delayMs: number) {
  if (forcedLogoutPending) return;
  forcedLogoutPending = true;
  toast('warning', text, LIMITS.forcedLogoutNoticeSeconds);
  // The server ends the session itself when it answers these codes; nothing to revoke here.
  setTimeout(() => void logout({ returnHere: true }), delayMs);
}

/**
 * Codes the handler always answers, even for a caller that shows its own messages: the logouts,
 * a server error (服务器错误, never the server's text) and a missing permission (a notification
 * titled 没有操作权限 with the server's message).
 */
const ALWAYS_SHOWN: readonly number[] = [
  ...LOGOUT_CODES,
  ResultCode.SERVER_ERROR,
  ResultCode.NO_PERMISSION,
  ResultCode.PASSWORD_CHANGE_REQUIRED,
];

/**
 * How a call's ordinary failures are shown (docs/product/errors.md#result-codes): `error` (the default: the server's message),
 * `warning` (docs/product/errors.md#dialogs: nickname, switch and password calls), or `{ handledBy }`: the caller shows them
 * itself, for the reason it states. The codes of ALWAYS_SHOWN are shown here whatever it says.
 */
export type FailurePresentation = 'error' | 'warning' | { handledBy: string };

/**
 * Tells the user about a failed call as docs/product/errors.md#result-codes says. True when the user was told here (so the caller
 * must not tell them again).
 */
export function handleFailure(status: number, serverMessage: string, how: FailurePresentation = 'error'): boolean {
  if (typeof how === 'object' && !ALWAYS_SHOWN.includes(status)) return false;
  // Not signed in, a logout code has nothing to end and nothing to say here: the caller says it.
  if (LOGOUT_CODES.includes(status) && !useSession.getState().token) return false;
  show(status, serverMessage, how === 'warning' ? 'warning' : 'error');
  return true;
}

function show(status: number, serverMessage: string, level: 'error' | 'warning'): void {
  const { t } = i18n;
  switch (status) {
    case ResultCode.UNAUTHORIZED:
    case ResultCode.SESSION_INVALID:
      if (loggedOutNoticeOpen || forcedLogoutPending) return;
      loggedOutNoticeOpen = true;
      confirm({
        title: t('errors.loggedOut'),
        okText: t('errors.relogin'),
        cancelText: t('errors.stay'),
        onOk: () => logout({ returnHere: true }),
        afterClose: () => {
          loggedOutNoticeOpen = false;
        },
      });
      return;
    case ResultCode.TICKET_EXPIRED:
      return forcedLogout(t('errors.ticketExpired'), 1500);
    case ResultCode.SESSION_TIMEOUT:
      return forcedLogout(t('errors.sessionTimeout'), 1500);
    case ResultCode.NO_PERMISSION_LOGOUT:
      return forcedLogout(t('errors.noPermissionLogout'), 1500);
    case ResultCode.FORCED_LOGOUT:
      return forcedLogout(t('errors.forcedLogout'), 1500);
    case ResultCode.NO_PERMISSION:
      notifyError({ message: t('errors.noPermissionTitle'), description: serverMessage });
      return;
    case ResultCode.PASSWORD_CHANGE_REQUIRED:
      return toPasswordChange();
    case ResultCode.SERVER_ERROR:
      toast('error', t('errors.server'));
      return;
    default:
      toast(level, serverMessage || t('errors.network'));
  }
}

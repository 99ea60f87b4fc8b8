/**
 * Where registration leads (docs/product/behaviour.md#register-result, docs/product/screens.md#registration-screen login link), and which of the
 * three layouts it shows (ADR 010).
 */
import type { RuntimeConfig } from '@portal/contracts';

type Cfg = Pick<RuntimeConfig, 'ssoUrl' | 'appBaseUrl' | 'backurl' | 'publicpath'>;

function withQuery(base: string, params: Record<string, string | null | undefined>): string {
  const [path, hash] = base.split('#', 2) as [string, string | undefined];
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const qs = q.toString();
  return `${path}${qs ? (path.includes('?') ? '&' : '?') + qs : ''}${hash !== undefined ? `#${hash}` : ''}`;
}

const inApp = (cfg: Cfg, path: string) => `${cfg.publicpath.replace(/\/$/, '')}${path}`;

/** After 注册成功: the sign-on login (with the service address if any), else the app base URL. */
export function afterRegisterUrl(cfg: Cfg, tenantCode: string, service: string | null): string {
  if (cfg.ssoUrl) {
    return withQuery(`${cfg.ssoUrl.replace(/\/$/, '')}/cas/login`, { loginType: '2', tenantCode, service });
  }
  return withQuery(cfg.appBaseUrl || inApp(cfg, '/login'), { tenantCode });
}

/** 'already have an account, log in': the configured back URL with the tenant code. */
export function loginLinkUrl(cfg: Cfg, tenantCode: string): string {
  return withQuery(cfg.backurl || inApp(cfg, '/login'), { tenantCode });
}

export type RegisterLayout = 'card' | 'split' | 'banner';

/**
 * `registerTheme` names a layout (card, split or banner; also 1, 2, 3); empty follows the portal's
 * theme: the JZH theme gets the banner, the top-menu theme the split page, the rest the card.
 */
export function registerLayout(cfg: Pick<RuntimeConfig, 'registerTheme' | 'theme' | 'apptheme'>): RegisterLayout {
  const r = cfg.registerTheme.trim().toLowerCase();
  const named: Record<string, RegisterLayout> = {
    card: 'card',
    '1': 'card',
    split: 'split',
    '2': 'split',
    banner: 'banner',
    '3': 'banner',
  };
  if (named[r]) return named[r];
  const theme = (cfg.apptheme || cfg.theme).trim().toLowerCase();
  return theme === 'jzh' ? 'banner' : theme === 'top' ? 'split' : 'card';
}

/**
 * The shell's layout by runtime theme (docs/product/overview.md#runtime-switches, docs/product/screens.md#layout): `apptheme`, else `theme`. `top` is
 * the top menu of screen 8, `JZH` the flyout menu; anything else (default empty) the side menu.
 */
import type { RuntimeConfig } from '@portal/contracts';

export type LayoutTheme = 'side' | 'top' | 'jzh';

export function layoutTheme(cfg: Pick<RuntimeConfig, 'theme' | 'apptheme'>): LayoutTheme {
  const v = (cfg.apptheme || cfg.theme).trim().toLowerCase();
  return v === 'top' ? 'top' : v === 'jzh' ? 'jzh' : 'side';
}

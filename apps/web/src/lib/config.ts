import type { RuntimeConfig } from '@portal/contracts';

declare global {
  interface Window {
    __PORTAL_CONFIG__?: RuntimeConfig;
    /** A host application sets this to false to force a logout (docs/product/overview.md#forced-logout). */
    loginstate?: boolean;
  }
}

/** The runtime configuration written by the server into config.js before the app boots. */
export function runtimeConfig(): RuntimeConfig {
  const c = window.__PORTAL_CONFIG__;
  if (!c) throw new Error('config.js did not load: window.__PORTAL_CONFIG__ is missing');
  return c;
}

/** The router basename: the public path without its trailing slash. */
export function basename(): string {
  return runtimeConfig().publicpath.replace(/\/$/, '') || '/';
}

import { RUNTIME_DEFAULTS } from '@portal/contracts';

// The runtime configuration the server would serve as config.js with no overrides.
window.__PORTAL_CONFIG__ = { ...RUNTIME_DEFAULTS, signSecret: 'test-secret', uploadMaxBytes: 20 * 2 ** 20 };

// antd reads matchMedia, which jsdom lacks.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

// English is a chunk of its own in the browser (lib/i18n.ts); tests switch to it synchronously.
await (await import('./lib/i18n')).loadLocale('en-US');

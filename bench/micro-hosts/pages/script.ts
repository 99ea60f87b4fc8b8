import { scriptHost } from '../../../apps/web/src/features/micro-apps/host/script-host';
import type { MountedApp } from '../../../apps/web/src/features/micro-apps/host/adapter';
import { hostProps } from './props';

const container = document.getElementById('container')!;
let app: MountedApp | null = null;

function shownInShadow(): Promise<void> {
  return new Promise((done) => {
    const check = () => (container.shadowRoot?.querySelector('.park-row') ? done() : requestAnimationFrame(check));
    check();
  });
}

window.candidate = {
  async open() {
    app = await scriptHost.mount({
      code: 'park-services',
      entry: '/sub/',
      container,
      props: hostProps(),
      timeoutMs: 120_000,
    });
    await shownInShadow();
  },
  async close() {
    await app?.destroy();
    app = null;
  },
};

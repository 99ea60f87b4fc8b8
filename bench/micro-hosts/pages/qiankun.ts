import { loadMicroApp, type MicroApp } from 'qiankun';
import { hostProps, shown } from './props';

const container = document.getElementById('container')!;
let app: MicroApp | null = null;

window.candidate = {
  async open() {
    app = loadMicroApp(
      { name: 'park-services', entry: '/sub/', container, props: hostProps() },
      { sandbox: true, singular: false },
    );
    await app.mountPromise;
    await shown(container);
  },
  async close() {
    await app?.unmount();
    app = null;
  },
};

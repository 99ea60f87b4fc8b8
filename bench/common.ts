/**
 * What both benchmarks (bench/run.ts, bench/shell.ts) need alike: settings from the environment,
 * rounding and percentiles, and the facts about the machine a report starts with.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, release, totalmem } from 'node:os';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

/** A setting from the environment: `def` when unset; a whole number of at least `min` (or any number ≥ 0). */
export function envNumber(name: string, def: number, whole?: { min: number }): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (whole ? !Number.isInteger(n) || n < whole.min : !Number.isFinite(n) || n < 0) {
    const must = whole ? `a whole number of at least ${whole.min}` : 'a non-negative number';
    throw new Error(`${name} must be ${must} (got "${raw}")`);
  }
  return n;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The value at fraction `p` of `sorted` (ascending): the nearest-rank percentile. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

export function median(values: number[]): number {
  const sorted = ascending(values);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The commit measured, and whether files under `paths` (all when none) differ from it. */
function commit(paths: string[]): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', ...paths], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${head} + uncommitted changes${paths.length ? ` in ${paths.join(' or ')}` : ''}` : head;
  } catch {
    return 'unknown'; // not a git checkout
  }
}

/** The machine, for the head of a report; `paths`: the code whose changes the numbers reflect. */
export function machine(paths: string[] = []) {
  let nproc: number;
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    nproc = availableParallelism();
  }
  let loadavg = 'unknown';
  try {
    loadavg = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    // not Linux
  }
  return {
    nproc,
    git: commit(paths),
    loadAvgAtStart: loadavg,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    kernel: release(),
    date: new Date().toISOString(),
  };
}

/** Runs a benchmark's `main` and exits with its code, or with 1 and the error when it throws. */
export function runMain(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`[${name}] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}

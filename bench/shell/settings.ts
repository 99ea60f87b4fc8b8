/**
 * The shell benchmark's settings (read from the environment), its targets, the menu it adds, the
 * files it reads and writes, and `log`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BYTE_BUDGETS } from '../../e2e/support/assets.js';
import { envNumber, ROOT } from '../common.js';

// import.meta.dirname is bench/shell/ here: BENCH_DIR is its parent, bench/.
export const BENCH_DIR = join(import.meta.dirname, '..');
export const SERVER_MAIN = join(ROOT, 'apps/server/dist/programs/server/main.js');
export const WEB_INDEX = join(ROOT, 'apps/web/dist/index.html');
export const RESULTS_DIR = join(BENCH_DIR, 'results');

export const settings = {
  /** Logins timed for login → first screen (median reported). */
  logins: envNumber('BENCH_SHELL_LOGINS', 5, { min: 1 }),
  /** Tabs open while switching. */
  switchTabs: envNumber('BENCH_SHELL_SWITCH_TABS', 30, { min: 1 }),
  /** Measured switches (each followed by a baseline click); 5 unmeasured ones come first. */
  switches: envNumber('BENCH_SHELL_SWITCHES', 60, { min: 1 }),
  /** Tabs opened for the memory measurement. */
  memoryTabs: envNumber('BENCH_SHELL_MEMORY_TABS', 100, { min: 1 }),
  /** Seed of the random tab order, so runs switch in the same order. */
  seed: envNumber('BENCH_SHELL_SEED', 20261123, { min: 1 }),
  /** Lighthouse runs on the login page (the median score is reported). */
  lighthouseRuns: envNumber('BENCH_SHELL_LIGHTHOUSE_RUNS', 3, { min: 1 }),
  viewport: { width: 1440, height: 900 },
  /** Pointer moves of the builder's drag (each one a step of the drag, and of its baseline). */
  builderMoves: envNumber('BENCH_SHELL_BUILDER_MOVES', 60, { min: 5 }),
  /** Work-screen loads timed (the median is reported). */
  workScreenRuns: envNumber('BENCH_SHELL_WORKSCREEN_RUNS', 5, { min: 1 }),
};

export const TARGETS = {
  // The same budgets `npm test` enforces (e2e/budgets.spec.ts).
  loginPageGzipKb: BYTE_BUDGETS.loginPageGzipKb,
  firstScreenGzipKb: BYTE_BUDGETS.firstScreenGzipKb,
  switchMs: 50,
  /** Lighthouse, mobile profile (slow 4G, 4× slower CPU), on the login page (ADR 015). */
  lighthousePerformance: 95,
  lighthouseAccessibility: 100,
  /** Memory comes back when a second round of the same tabs ends within 10 % (or 2 MB) of the first. */
  memoryBackRatio: 0.1,
  memoryBackMb: 2,
};

export const MENU = { roots: 20, dirs: 9, leaves: 10 };
export const LIGHTHOUSE_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string }
).version;
export const DEMO_PASSWORD = 'Demo@2026!';
export const RUNTIME = { keepAlive: true };

export const log = (msg: string) => process.stdout.write(`[shell-bench] ${msg}\n`);

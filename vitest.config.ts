import { defineConfig } from 'vitest/config';

/**
 * One embedded PostgreSQL per run, with one migrated and seeded template database that every test
 * database is copied from (test/global-setup.ts, ADR 042).
 *
 * Contracts, server (in-process, through `inject()`), web (jsdom) and browser (e2e) tests run side
 * by side, three files at a time: most of a test's time is spent waiting on PostgreSQL, a child
 * process or the browser, so more files than cores keep both cores busy (vitest's own default is
 * one file at a time on two cores). Then, alone and one at a time, the whole-process tests
 * (`*.process.test.ts` and `*.process.spec.ts`: built servers as child processes, nginx, an
 * embedded PostgreSQL of their own, a stop under load), which measure what a loaded machine
 * would disturb. `npm run test:fast` runs contracts, server and web alone.
 */
const WHOLE_PROCESS = ['apps/server/src/**/*.process.test.ts', 'e2e/**/*.process.spec.ts'];

export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    globalSetup: ['./test/global-setup.ts'],
    // The JSON report feeds the plain "N passed, N failed" line that .ci/run prints at the end.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-data/vitest-results.json' },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: WHOLE_PROCESS,
          // A worker keeps the server's modules loaded from one file to the next (a third of the
          // fast part's time was loading them again). Every file builds its own app on its own
          // database; no server test mocks a module, fakes timers or changes the environment, and
          // the server keeps no state in a module but constant data.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./apps/web/src/test-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: WHOLE_PROCESS,
          testTimeout: 90_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          exclude: WHOLE_PROCESS,
          // A worker runs its files one after another in one module graph: the support modules,
          // Playwright and the server's modules the helpers import load once per worker, and so
          // does Chromium (`sharedBrowser` in e2e/support/browser.ts). Every file still starts its
          // own servers on databases of its own and opens its own browser contexts; no spec mocks
          // a module or keeps state in a support module (ADR 042).
          isolate: false,
          testTimeout: 90_000,
          // A page's first answer on a loaded machine (CI's 2 cores run the whole suite) can take
          // longer than expect.poll's default second.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});

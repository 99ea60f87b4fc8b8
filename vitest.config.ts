import { defineConfig } from 'vitest/config';

/**
 * One embedded PostgreSQL per run, with one migrated and seeded template database that every test
 * database is copied from (test/global-setup.ts).
 *
 * Two groups, one after the other:
 * - the fast part (`npm run test:fast`): contracts, server (in-process, through `inject()`) and web
 *   (jsdom) tests, several files at a time;
 * - the slow part: browser tests (e2e) and whole-process server tests (`*.process.test.ts`: built
 *   servers as child processes, nginx, an embedded PostgreSQL of their own), each project one file
 *   at a time, the two projects side by side.
 */
const WHOLE_PROCESS = 'apps/server/src/**/*.process.test.ts';

export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    globalSetup: ['./test/global-setup.ts'],
    // The JSON report feeds the plain "N passed, N failed" line that .ci/run prints at the end.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-data/vitest-results.json' },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Most of a test's time is spent waiting on PostgreSQL, a child process or the browser: more
    // files than cores keep both cores busy (vitest's default is one file at a time on two cores).
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'server', include: ['apps/server/src/**/*.test.ts'], exclude: [WHOLE_PROCESS] },
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
          include: [WHOLE_PROCESS],
          testTimeout: 90_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          testTimeout: 90_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          // A page's first answer on a loaded machine (CI's 2 cores run the whole suite) can take
          // longer than expect.poll's default second.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});

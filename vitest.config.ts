import { defineConfig } from 'vitest/config';

// One embedded PostgreSQL per run (test/global-setup.ts); each test file makes its own database.
export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    globalSetup: ['./test/global-setup.ts'],
    // The JSON report feeds the plain "N passed, N failed" line that .ci/run prints at the end.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-data/vitest-results.json' },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'] } },
      { extends: true, test: { name: 'server', include: ['apps/server/src/**/*.test.ts'] } },
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
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          testTimeout: 90_000,
          fileParallelism: false,
          // A page's first answer on a loaded machine (CI's 2 cores run the whole suite) can take
          // longer than expect.poll's default second.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});

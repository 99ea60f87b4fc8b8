import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './test/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

it('docs/api.md lists every API route the server has', () => {
  const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  const tree = ctx.app.printRoutes({ commonPrefix: false });
  // printRoutes draws a tree; with no common prefix each API route is one line "api/... (GET)".
  const paths = [...tree.matchAll(/\b(api\/[^\s(]+) \(/g)].map((m) => `/${m[1]!}`);
  expect(paths.length).toBeGreaterThan(5);
  for (const path of paths) expect(doc, `docs/api.md does not list ${path}`).toContain(`\`${path}\``);
});

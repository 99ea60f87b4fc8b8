import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './test/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

it('docs/api.md lists every route the server has', () => {
  const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  const paths = new Set(
    ctx.app.routeTable.filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/center')).map((r) => r.url),
  );
  expect(paths.size).toBeGreaterThan(40);
  for (const path of paths) expect(doc, `docs/api.md does not list ${path}`).toContain(`\`${path}\``);
});

/**
 * The API's descriptions agree with the server: the OpenAPI document (made from the route schemas)
 * describes every route, and docs/api.md names every operation of that document.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from './platform/openapi.js';
import { createTestContext, type TestContext } from './test/harness.js';

let ctx: TestContext;
let openapi: { openapi: string; paths: Record<string, Record<string, { responses?: object }>> };
beforeAll(async () => {
  ctx = await createTestContext();
  openapi = (await ctx.app.inject({ url: OPENAPI_PATH })).json();
});
afterAll(async () => ctx?.close());

/** `/api/x/{id}` → `/api/x/:id`, the way the README and docs/api.md write paths. */
const colon = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const routes = () =>
  ctx.app.routeTable.filter(
    (r) => r.method !== 'HEAD' && !r.url.startsWith('/center') && r.url !== OPENAPI_PATH && !r.url.startsWith('/sso'),
  );

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1, served unsigned, and describes every route with its method (admin routes included)', async () => {
    expect(openapi.openapi).toBe('3.1.0');
    const described = new Set(
      Object.entries(openapi.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${colon(path)}`),
      ),
    );
    const missing = routes()
      .filter((r) => r.url.startsWith('/api/'))
      .map((r) => `${r.method} ${r.url}`)
      .filter((op) => !described.has(op));
    expect(missing).toEqual([]);
    expect([...described].filter((op) => op.includes(' /api/admin/')).length).toBeGreaterThan(15);
    for (const [path, ops] of Object.entries(openapi.paths)) {
      for (const [method, op] of Object.entries(ops)) expect(op.responses, `${method} ${path}`).toBeTruthy();
    }
    // TypeBox's own markers never leak into the document.
    expect(JSON.stringify(openapi)).not.toMatch(/"~(kind|optional|readonly)"/);
  });
});

it('docs/api.md lists every route the server has and every operation of the OpenAPI document', () => {
  const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  const paths = new Set([...routes().map((r) => r.url), ...Object.keys(openapi.paths).map(colon)]);
  expect(paths.size).toBeGreaterThan(40);
  for (const path of paths) expect(doc, `docs/api.md does not list ${path}`).toContain(`\`${path}\``);
});

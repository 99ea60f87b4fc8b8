/**
 * The API's descriptions agree with the server: the OpenAPI document (made from the route schemas)
 * describes every route, docs/api.md names every operation of that document, and the threat model
 * (docs/security.md) has a row for every operator power and names tests that exist.
 */
import { existsSync, readFileSync } from 'node:fs';
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

describe('the threat model (docs/security.md)', () => {
  const doc = () => readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
  /** The rows of the table under `heading`, as their cells. */
  const table = (heading: string) => {
    const text = doc();
    const start = text.indexOf(`## ${heading}`);
    expect(start, `docs/security.md has a section "${heading}"`).toBeGreaterThanOrEqual(0);
    const end = text.indexOf('\n## ', start + 1);
    return text
      .slice(start, end < 0 ? undefined : end)
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| ---') && !/^\| (route|actor) \|/.test(line))
      .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '').trim()));
  };

  it('has a row for every route under /api/admin/, and none for a route that is gone', () => {
    const routes = ctx.app.routeTable
      .filter((r) => r.url.startsWith('/api/admin/') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    const rows = table("The operators' powers").map((cells) => cells[0]!.replace(/`/g, ''));
    expect(routes.filter((r) => !rows.includes(r))).toEqual([]);
    expect(rows.filter((r) => !routes.includes(r))).toEqual([]);
    expect(new Set(rows).size).toBe(rows.length);
  });

  it('proves every line with a test that exists: its file, and its name in that file', () => {
    const rows = table('What each actor can never do');
    expect(rows.length).toBeGreaterThan(30);
    const root = new URL('../../../', import.meta.url);
    const missing = rows.flatMap((cells) => {
      const proof = /^`([^`]+)` › "(.+)"$/.exec(cells[2] ?? '');
      if (!proof) return [`${cells[0]} — ${cells[1]}: its proof is not written as a file and a test name: ${cells[2]}`];
      const [, file, name] = proof as unknown as [string, string, string];
      const path = new URL(file, root);
      if (!existsSync(path)) return [`${file} does not exist`];
      return readFileSync(path, 'utf8').includes(name) ? [] : [`${file} has no test "${name}"`];
    });
    expect(missing).toEqual([]);
  });
});

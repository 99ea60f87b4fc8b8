/**
 * The API's descriptions agree with the server: the OpenAPI document (made from the route schemas)
 * describes every route, docs/api.md names every operation of that document, and the threat model
 * (docs/security.md) has a row for every operator power and names tests that exist. And the
 * repository explains itself: code and documents cite only what is in it (docs/product/, docs/api.md,
 * the ADRs), every link and anchor they cite resolves, and every ADR says when it was taken and
 * whether it still holds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
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

// ---- The repository explains itself ---------------------------------------------------------------

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Tracked text files: sources and documents, without dependencies, builds and the lockfile. */
const trackedFiles = (): { path: string; text: string }[] =>
  execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((f) => f && !/(^|\/)(node_modules|dist)\//.test(f) && !f.endsWith('package-lock.json'))
    .filter((f) => existsSync(join(ROOT, f)) && statSync(join(ROOT, f)).isFile())
    .map((f) => ({ path: f, buffer: readFileSync(join(ROOT, f)) }))
    .filter(({ buffer }) => !buffer.includes(0))
    .map(({ path, buffer }) => ({ path, text: buffer.toString('utf8') }));

/**
 * What the repository never cites: the design notes that are not in it (their names are spelled in
 * pieces here so that this file does not cite them either) and numbered work items. The reader
 * needs the rule itself, written in docs/product/, docs/api.md or an ADR.
 */
const FOREIGN: [RegExp, string][] = [
  [/\bspec\s*§/i, 'a section of the old specification (cite docs/product/<page>.md#<anchor>)'],
  [new RegExp('ARCHI' + 'TECTURE'), 'the old design notes (cite docs/architecture.md or an ADR)'],
  [new RegExp('GOT' + 'CHAS'), 'the old notes on pitfalls (say the fact itself)'],
  [new RegExp('STYLE' + '\\.md'), 'the old style notes (cite docs/architecture.md or eslint.config.js)'],
  [new RegExp('\\.\\./' + 'shared\\b'), 'a folder outside the repository'],
  [new RegExp('portal-' + 'spec'), 'the old specification'],
  [/\bissues? #?\d+/i, 'a numbered work item (say what the code does and why, or cite the ADR)'],
  [/(?<![\d.]|ADR \d{3} |CAS 3\.0 )§\d(?![.\d])/, 'a bare section number of a document not in the repository'],
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
const anchorCache = new Map<string, Set<string>>();
/** The anchors of a Markdown file: explicit `<a id>`s and its headings' slugs (repeats numbered). */
const anchorsOf = (file: string) => {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  for (const m of text.matchAll(/\bid="([^"]+)"/g)) anchors.add(m[1]!);
  const seen = new Map<string, number>();
  for (const m of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
};
/** Why `target` (a path with an optional #anchor, already made absolute) does not resolve, or null. */
const unresolved = (target: string): string | null => {
  const [path, anchor] = target.split('#') as [string, string | undefined];
  if (!existsSync(path)) {
    // `docs/decisions/013` names the ADR numbered so.
    const dir = dirname(path);
    const prefix = path.slice(dir.length + 1);
    const numbered =
      /^\d{3}$/.test(prefix) && existsSync(dir) && readdirSync(dir).some((f) => f.startsWith(`${prefix}-`));
    return numbered && !anchor ? null : 'no such file';
  }
  if (anchor === undefined || anchor === '') return null;
  if (!path.endsWith('.md')) return 'an anchor in a file that is not Markdown';
  return anchorsOf(path).has(anchor) ? null : `no anchor #${anchor}`;
};

describe('the repository explains itself', () => {
  const files = trackedFiles();
  const markdown = files.filter((f) => f.path.endsWith('.md'));
  const code = files.filter((f) => !f.path.endsWith('.md'));
  const decisions = readdirSync(join(ROOT, 'docs/decisions')).filter((f) => /^\d{3}-.+\.md$/.test(f));

  it('cites nothing outside it: no old specification, design or style notes, no numbered work items', () => {
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap(({ path, text }) =>
      text
        .split('\n')
        .flatMap((line, i) =>
          FOREIGN.filter(([pattern]) => pattern.test(line)).map(
            ([, what]) => `${path}:${i + 1} cites ${what}: ${line.trim().slice(0, 120)}`,
          ),
        ),
    );
    expect(found).toEqual([]);
  });

  it('cites only ADRs that exist', () => {
    const numbers = new Set(decisions.map((f) => f.slice(0, 3)));
    const found = files.flatMap(({ path, text }) =>
      [...text.matchAll(/\bADRs? (\d{3}(?:(?:,| and| or|,? and) \d{3})*)|\bdecisions\/(\d{3})\b/g)].flatMap((m) =>
        (m[1] ?? m[2]!)
          .split(/\D+/)
          .filter((n) => n && !numbers.has(n))
          .map((n) => `${path} cites ADR ${n}, which docs/decisions/ does not have`),
      ),
    );
    expect(numbers.size).toBeGreaterThan(30);
    expect(found).toEqual([]);
  });

  it('links only to files and anchors that exist, from every Markdown file', () => {
    const broken = markdown.flatMap(({ path, text }) => {
      const prose = text.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ' '));
      return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target))
        .flatMap((target) => {
          const absolute = target.startsWith('#')
            ? join(ROOT, path) + target
            : normalize(join(ROOT, dirname(path), target));
          const why = unresolved(absolute);
          return why ? [`${path} links to ${target}: ${why}`] : [];
        });
    });
    expect(broken).toEqual([]);
  });

  it('names only docs/ paths and anchors that exist, in every comment of the code', () => {
    const broken = code.flatMap(({ path, text }) =>
      [...text.matchAll(/(?<![\w./-])docs\/[\w./-]*(?:#[\w-]+)?/g)].flatMap((m) => {
        const target = m[0].replace(/[.]+$/, '');
        const why = unresolved(join(ROOT, target));
        return why ? [`${path} names ${target}: ${why}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('gives every ADR a date and a status near its top, and lists it in docs/decisions/README.md', () => {
    const index = readFileSync(join(ROOT, 'docs/decisions/README.md'), 'utf8');
    const missing = decisions.flatMap((file) => {
      const head = readFileSync(join(ROOT, 'docs/decisions', file), 'utf8')
        .split('\n')
        .slice(0, 8)
        .join('\n');
      return [
        ...(/^Date: \d{4}-\d{2}-\d{2}$/m.test(head) ? [] : [`${file} has no "Date: YYYY-MM-DD" line near its top`]),
        ...(/^Status: (accepted|superseded by \d{3})\b/m.test(head)
          ? []
          : [`${file} has no "Status: accepted" or "Status: superseded by NNN" line near its top`]),
        ...(index.includes(`](${file})`) ? [] : [`docs/decisions/README.md does not list ${file}`]),
      ];
    });
    expect(missing).toEqual([]);
  });

  it('is indexed: docs/product/README.md lists every page of the product reference', () => {
    const index = readFileSync(join(ROOT, 'docs/product/README.md'), 'utf8');
    const pages = readdirSync(join(ROOT, 'docs/product')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.filter((page) => !index.includes(`](${page})`))).toEqual([]);
  });
});

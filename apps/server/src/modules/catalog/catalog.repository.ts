import type { IndustryNode } from '@portal/contracts';
import { asc } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { industries } from '../../db/schema.js';
import type { Lang } from '../../platform/i18n.js';
import type { InvalidationBus } from '../../platform/invalidation.js';
import type { IndustryRecord } from './industries-file.js';
import { sectionName } from './names-en.js';

/** Rows per INSERT: 5 parameters each, well below PostgreSQL's 65,535 per statement. */
const CHUNK = 2_000;

/** Replaces the whole industries table with `rows`, inside the caller's transaction. */
export async function writeIndustries(tx: Db | Tx, rows: readonly IndustryRecord[]): Promise<number> {
  await tx.delete(industries);
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx.insert(industries).values(
      rows.slice(i, i + CHUNK).map((r) => ({
        code: r.code,
        parentCode: r.parentCode,
        name: r.name,
        level: r.level,
        sort: r.sort,
      })),
    );
  }
  return rows.length;
}

/** Replaces the whole industries table with `rows` in one transaction (the import command). */
export function replaceIndustries(db: Db, rows: readonly IndustryRecord[]): Promise<number> {
  return db.transaction((tx) => writeIndustries(tx, rows));
}

interface IndustryCache {
  loadedAt: number;
  /** The whole tree: `children` only under nodes that have any. */
  tree: IndustryNode[];
  /** Each node's direct children, without their own children; '' holds the sections. */
  childrenOf: Map<string, IndustryNode[]>;
  leaves: Set<string>;
  /** Each node's section (门类), by walking up its parents: the open dashboard's grouping. */
  sectionOf: Map<string, IndustryNode>;
  /** Each node's parent ('' for a section) and name: a code's names from its section down. */
  parentOf: Map<string, { parent: string; name: string }>;
}

async function loadIndustries(db: Db, now: number): Promise<IndustryCache> {
  const rows = await db
    .select({
      code: industries.code,
      parentCode: industries.parentCode,
      name: industries.name,
      level: industries.level,
    })
    .from(industries)
    .orderBy(asc(industries.level), asc(industries.sort), asc(industries.code));
  const nodes = new Map<string, IndustryNode & { children: IndustryNode[] }>();
  const tree: IndustryNode[] = [];
  const sectionOf = new Map<string, IndustryNode>();
  const parentOf = new Map<string, { parent: string; name: string }>();
  // By level: a parent is always placed before its children. A row whose parent is missing (the
  // import refuses those; only a hand edit makes one) is left out with everything below it.
  for (const r of rows) {
    const node = { code: r.code, name: r.name, level: r.level, isLeaf: true, children: [] };
    if (r.parentCode === null) {
      if (r.level !== 1) continue;
      tree.push(node);
      sectionOf.set(r.code, node);
    } else {
      const parent = nodes.get(r.parentCode);
      if (!parent) continue;
      parent.children.push(node);
      parent.isLeaf = false;
      sectionOf.set(r.code, sectionOf.get(r.parentCode)!);
    }
    nodes.set(r.code, node);
    parentOf.set(r.code, { parent: r.parentCode ?? '', name: r.name });
  }
  const childrenOf = new Map<string, IndustryNode[]>();
  const leaves = new Set<string>();
  const flat = (list: IndustryNode[]) => list.map(({ code, name, level, isLeaf }) => ({ code, name, level, isLeaf }));
  childrenOf.set('', flat(tree));
  for (const node of nodes.values()) {
    if (node.isLeaf) {
      leaves.add(node.code);
      delete (node as IndustryNode).children;
    } else childrenOf.set(node.code, flat(node.children));
  }
  return { loadedAt: now, tree, childrenOf, leaves, sectionOf, parentOf };
}

/**
 * Industries (GB/T 4754-2017) for the registration picker. The whole tree is small (at most 10,000
 * rows) and changes only through the import command, so each process keeps it in memory and
 * reloads it after `ttlMs` (60 s), or at once on a `catalog` invalidation (which the import sends).
 */
export function createCatalogRepository(
  db: Db,
  opts: { ttlMs?: number; now?: () => number; bus?: InvalidationBus } = {},
) {
  const ttlMs = opts.ttlMs ?? 60_000;
  const now = opts.now ?? Date.now;
  let cache: IndustryCache | null = null;
  let loading: Promise<IndustryCache> | null = null;
  let generation = 0;

  const invalidate = () => {
    generation++;
    cache = null;
    loading = null;
  };
  opts.bus?.subscribe((e) => {
    if (e.kind === 'all' || e.kind === 'catalog') invalidate();
  });

  async function current(): Promise<IndustryCache> {
    if (cache && now() - cache.loadedAt < ttlMs) return cache;
    if (!loading) {
      const seen = generation;
      const load = loadIndustries(db, now()).then(
        (loaded) => {
          if (seen === generation) {
            cache = loaded;
            loading = null;
          }
          return loaded;
        },
        (err: unknown) => {
          if (seen === generation) loading = null;
          throw err;
        },
      );
      loading = load;
    }
    return loading;
  }

  return {
    /** The whole tree, sections first, each level in the imported order. */
    async industryTree(): Promise<IndustryNode[]> {
      return (await current()).tree;
    },
    /** A node's direct children (no grandchildren); none for an unknown code. */
    async industryChildren(parentCode: string): Promise<IndustryNode[]> {
      return (await current()).childrenOf.get(parentCode) ?? [];
    },
    /**
     * Whether `code` is a leaf of the tree: a class once the full classification is imported; with
     * the demo seed, also each division the seed has no classes for.
     */
    async isIndustryLeaf(code: string): Promise<boolean> {
      return (await current()).leaves.has(code);
    },
    /**
     * The section (门类) each code (at any level) belongs to, with its name in `lang`
     * (names-en.ts); a code the tree does not hold is absent. One read of the cached tree.
     */
    async sectionsOf(codes: readonly string[], lang: Lang): Promise<Map<string, { code: string; name: string }>> {
      const { sectionOf } = await current();
      const out = new Map<string, { code: string; name: string }>();
      for (const code of codes) {
        const section = sectionOf.get(code);
        if (section) out.set(code, { code: section.code, name: sectionName(lang, section.code, section.name) });
      }
      return out;
    },
    /**
     * A code's names from its section down in `lang`: in English only the section's (names-en.ts),
     * the finer levels having no English of record. Null for a code the tree does not hold.
     */
    async industryNames(code: string, lang: Lang): Promise<string[] | null> {
      const { parentOf, sectionOf } = await current();
      if (!parentOf.has(code)) return null;
      const section = sectionOf.get(code)!;
      if (lang === 'en') return [sectionName(lang, section.code, section.name)];
      const names: string[] = [];
      for (let at = parentOf.get(code); at; at = parentOf.get(at.parent)) names.unshift(at.name);
      return names;
    },
    /** Drops the cached tree; the next call reads the table again. */
    invalidate,
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;

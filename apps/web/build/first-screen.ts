/**
 * One chunk for the library code of the first screen after login, instead of the dozens of small
 * shared chunks automatic splitting makes of antd and its rc-* parts (each its own request and
 * its own gzip dictionary). The set is computed from the module graph when the build ends:
 *
 * - from the first screen's route modules (`roots`), every module whose code it needs, statically:
 *   an import of names from a module that only passes them on (antd's index, the icons' index,
 *   rc-field-form's index) leads to the modules that define those names, not to the rest of it;
 * - less everything the entry (the login page) reaches: that stays in the entry's chunks.
 *
 * What it does not find stays with automatic splitting, which is always correct; finding too much
 * only makes the first screen heavier, which e2e/budgets.spec.ts would tell.
 */
import { dirname } from 'node:path';
import type { Plugin } from 'vite';

const LIBRARY = /\/node_modules\//;
const ALL = '\0all:';

interface Binding {
  /** Where the name comes from, or null when the module defines it. */
  spec: string | null;
  name: string;
}
interface Parsed {
  esm: boolean;
  /** Imports as written: the names taken ('*' for all), or none for an import for its effects. */
  imports: { spec: string; names: string[] | '*' }[];
  exports: Map<string, Binding>;
  stars: string[];
}

const IMPORT = /\bimport\s*(?:([\w$]+)\s*,?\s*)?(?:\*\s*as\s+([\w$]+)|\{([^}]*)\})?\s*from\s*(["'])([^"']+)\4/g;
const BARE_IMPORT = /\bimport\s*(["'])([^"']+)\1/g;
const EXPORT_FROM = /\bexport\s*(?:\*\s*(?:as\s+([\w$]+)\s*)?|\{([^}]*)\})\s*from\s*(["'])([^"']+)\3/g;
const EXPORT_LIST = /\bexport\s*\{([^}]*)\}(?!\s*from\b)/g;
const EXPORT_DEFAULT = /\bexport\s+default\b/;
const EXPORT_DECLARATION = /\bexport\s+(?:async\s+)?(?:function\s*\*?|class|const|let|var)\s*([\w$]+)/g;

/** `a as b, default as c, type T` → [[a, b], [default, c]]. */
const pairs = (list: string) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('type '))
    .map((s) => {
      const [from = '', to] = s.split(/\s+as\s+/);
      return [from, to ?? from] as const;
    });

function parse(code: string): Parsed {
  const text = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:"'\\])\/\/.*$/gm, '$1');
  const imports: Parsed['imports'] = [];
  const locals = new Map<string, Binding>();
  const exports = new Map<string, Binding>();
  const stars: string[] = [];
  for (const [, def, ns, named, , spec = ''] of text.matchAll(IMPORT)) {
    if (ns) {
      imports.push({ spec, names: '*' });
      locals.set(ns, { spec, name: '*' });
      if (def) locals.set(def, { spec, name: 'default' });
      continue;
    }
    const names: string[] = [];
    if (def) {
      names.push('default');
      locals.set(def, { spec, name: 'default' });
    }
    for (const [from, to] of pairs(named ?? '')) {
      names.push(from);
      locals.set(to, { spec, name: from });
    }
    imports.push({ spec, names });
  }
  for (const [, , spec = ''] of text.matchAll(BARE_IMPORT)) imports.push({ spec, names: [] });
  for (const [, starAs, named, , spec = ''] of text.matchAll(EXPORT_FROM)) {
    if (named !== undefined) for (const [from, to] of pairs(named)) exports.set(to, { spec, name: from });
    else if (starAs) exports.set(starAs, { spec, name: '*' });
    else stars.push(spec);
  }
  for (const [, named = ''] of text.matchAll(EXPORT_LIST)) {
    for (const [from, to] of pairs(named)) exports.set(to, locals.get(from) ?? { spec: null, name: from });
  }
  for (const [, name = ''] of text.matchAll(EXPORT_DECLARATION)) exports.set(name, { spec: null, name });
  // `export default X` makes a binding of its own (the module's code runs), unlike `export { X as default }`.
  if (EXPORT_DEFAULT.test(text)) exports.set('default', { spec: null, name: 'default' });
  const esm = imports.length > 0 || exports.size > 0 || stars.length > 0 || /\bexport\s/.test(text);
  return { esm, imports, exports, stars };
}

export function firstScreenChunk(roots: string[]) {
  const modules = new Set<string>();
  const plugin: Plugin = {
    name: 'portal-first-screen-chunk',
    apply: 'build',
    async buildEnd(error) {
      modules.clear();
      if (error) return;
      const ids = [...this.getModuleIds()];
      const info = (id: string) => this.getModuleInfo(id);

      const parsedCache = new Map<string, Parsed>();
      const parsed = (id: string) => {
        let p = parsedCache.get(id);
        if (!p) parsedCache.set(id, (p = parse(info(id)?.code ?? '')));
        return p;
      };
      const resolvedCache = new Map<string, string | null>();
      const resolve = async (spec: string, importer: string) => {
        const key = `${spec.startsWith('.') ? dirname(importer) : ''}\0${spec}`;
        if (!resolvedCache.has(key)) {
          const r = await this.resolve(spec, importer);
          resolvedCache.set(key, r && !r.external ? r.id : null);
        }
        return resolvedCache.get(key)!;
      };

      /** The modules that define `name` as `id` exports it (`id` itself when unsure). */
      const definers = async (id: string, name: string, seen = new Set<string>()): Promise<string[]> => {
        if (seen.has(`${id}\0${name}`)) return [id];
        seen.add(`${id}\0${name}`);
        const p = parsed(id);
        if (!p.esm || name === '*') return [id];
        const binding = p.exports.get(name);
        if (binding) {
          if (binding.spec === null) return [id];
          const target = await resolve(binding.spec, id);
          return target ? definers(target, binding.name, seen) : [id];
        }
        for (const star of p.stars) {
          const target = await resolve(star, id);
          if (target && (await exportsName(target, name))) return definers(target, name, seen);
        }
        // Not found: the module and all it imports or passes on, to be safe.
        return [`${ALL}${id}`];
      };
      const exportsName = async (id: string, name: string, depth = 0): Promise<boolean> => {
        const p = parsed(id);
        if (p.exports.has(name)) return true;
        if (depth > 10) return false;
        for (const star of p.stars) {
          const target = await resolve(star, id);
          if (target && (await exportsName(target, name, depth + 1))) return true;
        }
        return false;
      };

      const needed = new Set<string>();
      const whole = new Set<string>();
      const need = async (id: string, all = false): Promise<void> => {
        if (all ? whole.has(id) : needed.has(id)) return;
        needed.add(id);
        const p = parsed(id);
        if (all || !p.esm) {
          whole.add(id);
          await Promise.all((info(id)?.importedIds ?? []).map((d) => need(d, all)));
          return;
        }
        for (const { spec, names } of p.imports) {
          const target = await resolve(spec, id);
          if (!target) continue;
          if (names === '*') await need(target, true);
          else if (names.length === 0) await need(target);
          else
            for (const name of names)
              for (const d of await definers(target, name))
                await (d.startsWith(ALL) ? need(d.slice(ALL.length), true) : need(d));
        }
      };

      const rootIds = roots.map((root) => {
        const id = ids.find((m) => m.endsWith(root));
        if (!id) throw new Error(`first-screen chunk: no module ${root}`);
        return id;
      });
      for (const id of rootIds) await need(id);

      // Everything the entry reaches, counted generously: it must stay out of the group.
      const initial = new Set<string>();
      const queue = ids.filter((id) => info(id)?.isEntry);
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        if (initial.has(id)) continue;
        initial.add(id);
        queue.push(...(info(id)?.importedIds ?? []));
      }
      // Library code, and the app's own stand-ins for libraries (aliases) that library code imports.
      const fromLibrary = (id: string) => (info(id)?.importers ?? []).some((i) => LIBRARY.test(i) && needed.has(i));
      for (const id of needed) {
        if (initial.has(id) || /\.css$/.test(id)) continue;
        if (LIBRARY.test(id) || fromLibrary(id)) modules.add(id);
      }
    },
    // A module the group needs but did not find ends up in a chunk of its own that the group
    // imports; if that chunk imports the group back, the order in which their code runs is no
    // longer certain, so the build stops.
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const group = chunks.find((c) => c.name === 'first-screen');
      if (!group) return;
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const seen = new Set<string>();
      const queue = group.imports.filter((f) => !byFile.get(f)?.isEntry);
      for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
        const chunk = byFile.get(file);
        if (!chunk || seen.has(file)) continue;
        seen.add(file);
        if (chunk.imports.includes(group.fileName)) {
          this.error(`the first-screen chunk and ${file} import each other: ${Object.keys(chunk.modules).join(', ')}`);
        }
        queue.push(...chunk.imports);
      }
    },
  };
  return {
    plugin,
    /** The group for `output.codeSplitting.groups`. */
    group: {
      name: 'first-screen',
      test: (id: string) => modules.has(id),
      // Closed under what its modules need but for what the entry holds, which loads first.
      includeDependenciesRecursively: false,
    },
  };
}

/**
 * The advisory locks' registry (ADR 039): every key is named in `locks.ts` and nowhere else, and no
 * two names share a key.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXED_LOCKS, KEYED_LOCKS } from './locks.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

async function sources(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await sources(path)));
    else if (/\.[cm]?[jt]s$/.test(entry.name) && !/\.test\.[jt]s$/.test(entry.name)) found.push(path);
  }
  return found;
}

describe('the advisory locks', () => {
  it('are taken through the registry only: no other file of the server names pg_advisory or a key', async () => {
    const keys = Object.values(FIXED_LOCKS).map(String);
    const outside: string[] = [];
    for (const file of await sources(SRC)) {
      const name = relative(SRC, file);
      if (name === join('db', 'locks.ts')) continue;
      const text = await readFile(file, 'utf8');
      if (/pg_(try_)?advisory/i.test(text)) outside.push(`${name}: pg_advisory`);
      for (const key of keys) if (new RegExp(`\\b${key}\\b`).test(text)) outside.push(`${name}: ${key}`);
    }
    expect(outside).toEqual([]);
  });

  it('gives every name its own key', () => {
    const fixed = Object.values(FIXED_LOCKS);
    expect(new Set(fixed).size).toBe(fixed.length);
    for (const key of fixed) expect(Number.isSafeInteger(key) && key > 0).toBe(true);
    const kinds = Object.values(KEYED_LOCKS);
    expect(new Set(kinds).size).toBe(kinds.length);
    // A keyed lock's text is `kind:value…`: no kind may be the beginning of another's key.
    for (const a of kinds) for (const b of kinds) if (a !== b) expect(b.startsWith(`${a}:`)).toBe(false);
  });
});

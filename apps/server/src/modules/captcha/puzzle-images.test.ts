/**
 * The click-word characters must be real glyphs of the shipped font, not boxes: checked in the
 * font's own character map (a system font would otherwise hide a gap by drawing the character).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLICK_CHARACTERS } from './puzzle-images.js';

const FONT = join(dirname(fileURLToPath(import.meta.url)), '../../../assets/captcha/captcha-cjk.ttf');

/** Code points that the font maps to a glyph other than .notdef (cmap formats 4 and 12). */
function mappedCodePoints(font: Buffer): Set<number> {
  const tables = font.readUInt16BE(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    const rec = 12 + i * 16;
    if (font.toString('latin1', rec, rec + 4) === 'cmap') cmap = font.readUInt32BE(rec + 8);
  }
  if (cmap < 0) throw new Error('no cmap table');
  const out = new Set<number>();
  const subtables = font.readUInt16BE(cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const at = cmap + font.readUInt32BE(cmap + 4 + i * 8 + 4);
    const format = font.readUInt16BE(at);
    if (format === 4) {
      const segs = font.readUInt16BE(at + 6) / 2;
      const ends = at + 14;
      const starts = ends + segs * 2 + 2;
      const deltas = starts + segs * 2;
      const offsets = deltas + segs * 2;
      for (let s = 0; s < segs; s++) {
        const end = font.readUInt16BE(ends + s * 2);
        const start = font.readUInt16BE(starts + s * 2);
        const delta = font.readInt16BE(deltas + s * 2);
        const rangeOffset = font.readUInt16BE(offsets + s * 2);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          let glyph: number;
          if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
          else {
            const g = font.readUInt16BE(offsets + s * 2 + rangeOffset + (c - start) * 2);
            glyph = g === 0 ? 0 : (g + delta) & 0xffff;
          }
          if (glyph !== 0) out.add(c);
        }
      }
    } else if (format === 12) {
      const groups = font.readUInt32BE(at + 12);
      for (let g = 0; g < groups; g++) {
        const rec = at + 16 + g * 12;
        const [start, end, glyph] = [font.readUInt32BE(rec), font.readUInt32BE(rec + 4), font.readUInt32BE(rec + 8)];
        for (let c = start; c <= end; c++) if (glyph + (c - start) !== 0) out.add(c);
      }
    }
  }
  return out;
}

describe('captcha images', () => {
  it('draws every click-word character from a real glyph of the shipped font', () => {
    const mapped = mappedCodePoints(readFileSync(FONT));
    expect(CLICK_CHARACTERS.length).toBeGreaterThanOrEqual(300);
    expect(CLICK_CHARACTERS.filter((c) => !mapped.has(c.codePointAt(0)!))).toEqual([]);
    expect(new Set(CLICK_CHARACTERS).size).toBe(CLICK_CHARACTERS.length);
    expect(mapped.has('龘'.codePointAt(0)!)).toBe(false); // the check can tell a missing character
  });
});

/**
 * Images of the behavioural captchas (AJ-Captcha protocol): a background drawn anew for every
 * challenge (random gradient, shapes and strokes, so no fixed template finds the hole), the slider's
 * jigsaw piece cut from it, and the click-word characters. Characters come from the subset font in
 * assets/captcha (WenQuanYi Micro Hei, Apache-2.0), which arrives with the repository.
 */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GlobalFonts, createCanvas, type Path2D as CanvasPath, Path2D, type SKRSContext2D } from '@napi-rs/canvas';

export const FRAME = { width: 310, height: 155 } as const;
/** The jigsaw strip is as tall as the frame; the piece sits in it at the answer's y. */
export const PIECE = { width: 47, body: 35, knob: 6 } as const;

const ASSETS = join(dirname(fileURLToPath(import.meta.url)), '../../../assets/captcha');
const FONT = 'PortalCaptchaCJK';
let fontReady = false;

/** The characters the click-word captcha draws from (all of them are in the subset font). */
export const CLICK_CHARACTERS: readonly string[] = [...readFileSync(join(ASSETS, 'chars.txt'), 'utf8').trim()];

function ensureFont(): void {
  if (fontReady) return;
  GlobalFonts.registerFromPath(join(ASSETS, 'captcha-cjk.ttf'), FONT);
  fontReady = true;
}

const rnd = (min: number, max: number) => randomInt(min, max + 1);

function hsl(h: number, s: number, l: number, a = 1): string {
  return `hsla(${h},${s}%,${l}%,${a})`;
}

/** A landscape of a gradient, shapes and strokes in a random palette. */
function drawBackground(ctx: SKRSContext2D, width: number, height: number, shapes: number, strokes: number): void {
  const hue = rnd(0, 359);
  const g = ctx.createLinearGradient(0, 0, width, height);
  g.addColorStop(0, hsl(hue, rnd(35, 65), rnd(55, 70)));
  g.addColorStop(1, hsl((hue + rnd(40, 140)) % 360, rnd(35, 65), rnd(45, 65)));
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, width, height);
  // Opaque shapes over a smooth gradient: varied enough, and they compress (PNG under 30 KB).
  for (let i = 0; i < shapes; i++) {
    ctx.fillStyle = hsl((hue + rnd(0, 200)) % 360, rnd(30, 70), rnd(35, 80));
    ctx.beginPath();
    if (i % 3 === 0) {
      ctx.ellipse(rnd(0, width), rnd(0, height), rnd(12, 60), rnd(10, 45), rnd(0, 314) / 100, 0, Math.PI * 2);
    } else {
      ctx.moveTo(rnd(0, width), rnd(0, height));
      for (let k = 0; k < 3; k++) ctx.lineTo(rnd(0, width), rnd(0, height));
      ctx.closePath();
    }
    ctx.fill();
  }
  for (let i = 0; i < strokes; i++) {
    ctx.strokeStyle = hsl(rnd(0, 359), rnd(20, 60), rnd(30, 85));
    ctx.lineWidth = rnd(1, 3);
    ctx.beginPath();
    ctx.moveTo(rnd(0, width), rnd(0, height));
    ctx.bezierCurveTo(rnd(0, width), rnd(0, height), rnd(0, width), rnd(0, height), rnd(0, width), rnd(0, height));
    ctx.stroke();
  }
}

/** The piece's outline with its top-left corner at (x, y): a square body with knobs on top and right. */
function piecePath(x: number, y: number): CanvasPath {
  const { body, knob } = PIECE;
  const top = y + knob * 2;
  const p = new Path2D();
  p.moveTo(x, top);
  p.lineTo(x + body / 2 - knob, top);
  p.arc(x + body / 2, top, knob, Math.PI, 0, false);
  p.lineTo(x + body, top);
  p.lineTo(x + body, top + body / 2 - knob);
  p.arc(x + body, top + body / 2, knob, -Math.PI / 2, Math.PI / 2, false);
  p.lineTo(x + body, top + body);
  p.lineTo(x, top + body);
  p.closePath();
  return p;
}

/** Height of the piece's bounding box (body plus the top knob). */
export const PIECE_HEIGHT = PIECE.body + PIECE.knob * 2;

export interface SliderImages {
  /** Bare base64 PNGs, as AJ-Captcha sends them. */
  original: string;
  jigsaw: string;
}

/**
 * The background with a hole (and a fainter decoy) and the piece cut from it, in a strip as tall as
 * the frame. Placed with its left edge at `x`, the strip's piece covers the hole exactly: `x` is the
 * answer the slider must reach; `y` is the piece's top in both images.
 */
export async function drawSlider(x: number, y: number): Promise<SliderImages> {
  const bg = createCanvas(FRAME.width, FRAME.height);
  const ctx = bg.getContext('2d');
  drawBackground(ctx, FRAME.width, FRAME.height, 6, 3);

  const piece = createCanvas(PIECE.width, FRAME.height);
  const pctx = piece.getContext('2d');
  const inPiece = piecePath(1, y);
  pctx.save();
  pctx.clip(inPiece);
  pctx.drawImage(bg, -x, 0);
  pctx.restore();
  pctx.lineWidth = 2;
  pctx.strokeStyle = 'rgba(255,255,255,0.9)';
  pctx.stroke(inPiece);

  // A decoy at another place, fainter, so the brightest hole is not simply the answer.
  const decoyX =
    x > FRAME.width / 2 ? rnd(4, x - PIECE.width - 4) : rnd(x + PIECE.width + 4, FRAME.width - PIECE.width - 2);
  const decoy = piecePath(decoyX, rnd(4, FRAME.height - PIECE_HEIGHT - 4));
  ctx.fillStyle = 'rgba(0,0,0,0.22)';
  ctx.fill(decoy);
  const hole = piecePath(x + 1, y);
  ctx.fillStyle = 'rgba(0,0,0,0.5)';
  ctx.fill(hole);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = 'rgba(255,255,255,0.8)';
  ctx.stroke(hole);

  // Encoding runs on libuv's threadpool, so both cores draw while the main thread serves.
  const [original, jigsaw] = await Promise.all([bg.encode('png'), piece.encode('png')]);
  return { original: original.toString('base64'), jigsaw: jigsaw.toString('base64') };
}

export interface Glyph {
  char: string;
  x: number;
  y: number;
}

export const GLYPH_SIZE = 30;

/** The background with each character centred on its point, turned and coloured at random. */
export async function drawClickWord(glyphs: readonly Glyph[]): Promise<string> {
  ensureFont();
  const bg = createCanvas(FRAME.width, FRAME.height);
  const ctx = bg.getContext('2d');
  // Fewer shapes than the slider's: the outlined characters cost bytes of their own.
  drawBackground(ctx, FRAME.width, FRAME.height, 4, 2);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `${GLYPH_SIZE}px ${FONT}`;
  for (const g of glyphs) {
    ctx.save();
    ctx.translate(g.x, g.y);
    ctx.rotate((rnd(-40, 40) * Math.PI) / 180);
    ctx.fillStyle = hsl(rnd(0, 359), rnd(60, 90), rnd(15, 35));
    ctx.strokeStyle = 'rgba(255,255,255,0.85)';
    ctx.lineWidth = 3;
    ctx.strokeText(g.char, 0, 0);
    ctx.fillText(g.char, 0, 0);
    ctx.restore();
  }
  return (await bg.encode('png')).toString('base64');
}

/** Random places for `count` characters, far enough apart to be told from each other. */
export function randomGlyphPoints(count: number): { x: number; y: number }[] {
  const margin = GLYPH_SIZE / 2 + 6;
  const points: { x: number; y: number }[] = [];
  while (points.length < count) {
    const p = { x: rnd(margin, FRAME.width - margin), y: rnd(margin, FRAME.height - margin) };
    if (points.every((q) => Math.hypot(q.x - p.x, q.y - p.y) > GLYPH_SIZE * 1.6)) points.push(p);
  }
  return points;
}

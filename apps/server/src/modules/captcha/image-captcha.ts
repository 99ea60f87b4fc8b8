/**
 * Draws the login image captcha: four characters from an alphabet without look-alikes, each turned
 * and shifted, over noise lines and dots, with a font that arrives with `npm ci`.
 */
import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZabcdefhkmnpqrstuvwxyz';
const WIDTH = 120;
const HEIGHT = 40;
const FONT = 'PortalCaptcha';

let fontReady = false;
function ensureFont(): void {
  if (fontReady) return;
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('dejavu-fonts-ttf/package.json'));
  GlobalFonts.registerFromPath(join(dir, 'ttf', 'DejaVuSans-Bold.ttf'), FONT);
  fontReady = true;
}

export function randomAnswer(length = 4): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

function colour(min: number, max: number): string {
  return `rgb(${randomInt(min, max)},${randomInt(min, max)},${randomInt(min, max)})`;
}

/** A PNG data URL showing `text`. */
export function drawCaptcha(text: string): string {
  ensureFont();
  const canvas = createCanvas(WIDTH, HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = colour(225, 250);
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  for (let i = 0; i < 5; i++) {
    ctx.strokeStyle = colour(120, 200);
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(randomInt(WIDTH), randomInt(HEIGHT));
    ctx.bezierCurveTo(
      randomInt(WIDTH),
      randomInt(HEIGHT),
      randomInt(WIDTH),
      randomInt(HEIGHT),
      randomInt(WIDTH),
      randomInt(HEIGHT),
    );
    ctx.stroke();
  }
  const step = WIDTH / (text.length + 1);
  for (let i = 0; i < text.length; i++) {
    ctx.save();
    ctx.font = `${randomInt(22, 28)}px ${FONT}`;
    ctx.fillStyle = colour(20, 110);
    ctx.translate(step * (i + 0.6) + randomInt(-3, 4), HEIGHT / 2 + randomInt(-3, 4));
    ctx.rotate(((randomInt(-25, 26) as number) * Math.PI) / 180);
    ctx.textBaseline = 'middle';
    ctx.fillText(text[i] ?? '', 0, 0);
    ctx.restore();
  }
  for (let i = 0; i < 40; i++) {
    ctx.fillStyle = colour(80, 220);
    ctx.fillRect(randomInt(WIDTH), randomInt(HEIGHT), 1.5, 1.5);
  }
  return `data:image/png;base64,${canvas.toBuffer('image/png').toString('base64')}`;
}

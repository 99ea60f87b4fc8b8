/** The longest side an embedded picture keeps, and the JPEG quality it is stored at. */
const MAX_SIDE = 960;
const QUALITY = 0.82;
/** A data URL the page document accepts (its schema's bound on one image). */
const MAX_LENGTH = 65_000;

/**
 * A picture chosen from disk as a data URL small enough to embed: scaled to at most 960 px on its
 * longer side; kept as PNG when that fits (drawings, logos), else JPEG at a lower quality until it fits.
 * Decoding through a canvas also drops anything that is not pixels.
 */
export async function imageAsDataUrl(file: File): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const g = canvas.getContext('2d')!;
  g.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const png = canvas.toDataURL('image/png');
  if (png.length <= MAX_LENGTH) return png;
  for (let q = QUALITY; q >= 0.3; q -= 0.1) {
    const jpeg = canvas.toDataURL('image/jpeg', q);
    if (jpeg.length <= MAX_LENGTH) return jpeg;
  }
  // Still too large: half the size again.
  const small = document.createElement('canvas');
  small.width = Math.max(1, Math.round(canvas.width / 2));
  small.height = Math.max(1, Math.round(canvas.height / 2));
  small.getContext('2d')!.drawImage(canvas, 0, 0, small.width, small.height);
  const last = small.toDataURL('image/jpeg', 0.6);
  if (last.length <= MAX_LENGTH) return last;
  throw new Error('image too large');
}

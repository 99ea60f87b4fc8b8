/**
 * Whether a file's content is what its name says (ADR 024): the docs/product/validation.md#attachments extension allow-list AND the
 * content's own signature (magic bytes, `file-type`) must agree. Text formats (txt, css, js) have
 * no signature: they must be UTF-8 text without NUL and must not be markup a browser would render.
 */
import { fileTypeFromFile } from 'file-type';
import { open } from 'node:fs/promises';

/** For each allowed extension, the types `file-type` may recognise its content as. */
const SIGNATURES: Record<string, readonly string[] | 'text'> = {
  jpg: ['jpg'],
  jpeg: ['jpg'],
  png: ['png'],
  gif: ['gif'],
  pdf: ['pdf'],
  mp4: ['mp4', 'm4v'],
  zip: ['zip'],
  rar: ['rar'],
  gz: ['gz'],
  // Office Open XML is a zip; older file-type versions may only see the zip.
  docx: ['docx', 'zip'],
  xlsx: ['xlsx', 'zip'],
  pptx: ['pptx', 'zip'],
  // The binary Office formats are OLE compound files.
  doc: ['cfb'],
  xls: ['cfb'],
  ppt: ['cfb'],
  txt: 'text',
  css: 'text',
  js: 'text',
};

const MEDIA_TYPES: Record<string, string> = {
  txt: 'text/plain',
  css: 'text/css',
  js: 'text/javascript',
};

/** Markup a browser would render, at the start of a "text" file (after whitespace and a BOM). */
const MARKUP = /^\s*<(?:!doctype|html|svg|script|\?xml|body|head|iframe|object)\b/i;
const TEXT_SAMPLE = 64 * 1024;

async function isPlainText(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const buf = Buffer.alloc(TEXT_SAMPLE);
    const { bytesRead } = await file.read(buf, 0, TEXT_SAMPLE, 0);
    const sample = buf.subarray(0, bytesRead);
    if (sample.includes(0)) return false;
    // A cut in the middle of a character at the sample's end is not an error of the file.
    const text = new TextDecoder('utf-8', { fatal: false }).decode(sample).replace(/^\uFEFF/, '');
    if (text.slice(0, -4).includes('\uFFFD')) return false;
    return !MARKUP.test(text);
  } finally {
    await file.close();
  }
}

/** The media type to record when the content agrees with `ext`, else null. */
export async function checkContent(path: string, ext: string): Promise<string | null> {
  const expected = SIGNATURES[ext];
  if (!expected) return null;
  const found = await fileTypeFromFile(path);
  if (expected === 'text') return !found && (await isPlainText(path)) ? MEDIA_TYPES[ext]! : null;
  return found && expected.includes(found.ext) ? found.mime : null;
}

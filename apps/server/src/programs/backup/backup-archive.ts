/**
 * The container of a backup (ADR 029): a POSIX tar (ustar) of regular files, written and read as
 * streams, so `tar -tzf` lists a backup and `tar -xzf` takes one file out of it by hand. Only what
 * a backup needs: regular files, names of at most 100 bytes, sizes in octal or (past 8 GiB) in
 * GNU's base-256. The reader takes exactly that and refuses anything else.
 */

const BLOCK = 512;
const OCTAL_SIZE_LIMIT = 8 ** 11;

/** A tar that is damaged, cut short, or not one this module wrote. */
export class ArchiveError extends Error {}

export interface ArchiveEntry {
  name: string;
  size: number;
  body: Buffer | AsyncIterable<Buffer>;
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  block.write(value.toString(8).padStart(length - 1, '0') + '\0', offset, length, 'latin1');
}

function readOctal(block: Buffer, offset: number, length: number): number {
  const text = block
    .toString('latin1', offset, offset + length)
    .replace(/[\0 ]+$/, '')
    .trim();
  return /^[0-7]+$/.test(text) ? Number.parseInt(text, 8) : Number.NaN;
}

function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum;
}

function entryHeader(name: string, size: number, mtimeSeconds: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new Error(`archive entry name longer than 100 bytes: ${name}`);
  nameBytes.copy(block, 0);
  writeOctal(block, 100, 8, 0o600);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  if (size < OCTAL_SIZE_LIMIT) {
    writeOctal(block, 124, 12, size);
  } else {
    block[124] = 0x80;
    for (let i = 135, v = size; i > 124; i--, v = Math.floor(v / 256)) block[i] = v % 256;
  }
  writeOctal(block, 136, 12, mtimeSeconds);
  block[156] = 0x30; // '0': a regular file
  block.write('ustar\u000000', 257, 8, 'latin1');
  block.write(checksum(block).toString(8).padStart(6, '0') + '\0 ', 148, 8, 'latin1');
  return block;
}

/** The bytes of a tar holding `entries` in order; an entry whose body is not `size` bytes fails. */
export async function* writeArchive(
  entries: Iterable<ArchiveEntry> | AsyncIterable<ArchiveEntry>,
  mtime = new Date(),
): AsyncGenerator<Buffer> {
  const seconds = Math.floor(mtime.getTime() / 1000);
  for await (const entry of entries) {
    yield entryHeader(entry.name, entry.size, seconds);
    let written = 0;
    for await (const chunk of Buffer.isBuffer(entry.body) ? [entry.body] : entry.body) {
      written += chunk.length;
      if (written > entry.size) break;
      yield chunk;
    }
    if (written !== entry.size) throw new Error(`${entry.name} changed while it was written to the backup`);
    const padding = (BLOCK - (entry.size % BLOCK)) % BLOCK;
    if (padding > 0) yield Buffer.alloc(padding);
  }
  yield Buffer.alloc(2 * BLOCK); // the end of the archive
}

/** Reads a byte stream in exact amounts. */
class ByteReader {
  private buffer: Buffer = Buffer.alloc(0);
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async more(): Promise<void> {
    const next = await this.source.next();
    if (next.done) throw new ArchiveError('it ends early (the file is incomplete)');
    this.buffer = this.buffer.length === 0 ? next.value : Buffer.concat([this.buffer, next.value]);
  }

  async take(n: number): Promise<Buffer> {
    while (this.buffer.length < n) await this.more();
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  async takeSome(max: number): Promise<Buffer> {
    if (this.buffer.length === 0) await this.more();
    const out = this.buffer.subarray(0, Math.min(max, this.buffer.length));
    this.buffer = this.buffer.subarray(out.length);
    return out;
  }
}

export interface ReadEntry {
  name: string;
  size: number;
  /** The entry's bytes; whatever is left unread is skipped when the next entry is asked for. */
  body: AsyncIterable<Buffer>;
}

function parseHeader(block: Buffer): { name: string; size: number } {
  if (block.toString('latin1', 257, 262) !== 'ustar' || readOctal(block, 148, 8) !== checksum(block)) {
    throw new ArchiveError('an entry header is damaged');
  }
  if (block[156] !== 0x30 && block[156] !== 0) throw new ArchiveError('it holds an entry that is not a plain file');
  const field = (offset: number, length: number) => {
    const raw = block.subarray(offset, offset + length);
    const end = raw.indexOf(0);
    return raw.subarray(0, end < 0 ? length : end).toString('utf8');
  };
  const prefix = field(345, 155);
  const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
  let size: number;
  if ((block[124]! & 0x80) !== 0) {
    size = 0;
    for (let i = 125; i < 136; i++) size = size * 256 + block[i]!;
  } else {
    size = readOctal(block, 124, 12);
  }
  if (!Number.isSafeInteger(size) || size < 0) throw new ArchiveError('an entry header is damaged');
  return { name, size };
}

/** The entries of a tar stream, in order; the stream must end with the end-of-archive blocks. */
export async function* readArchive(source: AsyncIterable<Buffer>): AsyncGenerator<ReadEntry> {
  const iterator = source[Symbol.asyncIterator]();
  const reader = new ByteReader(iterator);
  try {
    for (;;) {
      const block = await reader.take(BLOCK);
      if (block.every((b) => b === 0)) return;
      const { name, size } = parseHeader(block);
      let left = size;
      const body = (async function* () {
        while (left > 0) {
          const chunk = await reader.takeSome(left);
          left -= chunk.length;
          yield chunk;
        }
      })();
      yield { name, size, body };
      while (left > 0) left -= (await reader.takeSome(left)).length;
      await reader.take((BLOCK - (size % BLOCK)) % BLOCK);
    }
  } finally {
    // Stops the source (a file stream is closed) when the reader ends or is let go early.
    await iterator.return?.();
  }
}

/**
 * The container of a backup (ADR 029): a POSIX tar (ustar) of regular files, written and read as
 * streams by tar-stream (ADR 041), so `tar -tzf` lists a backup and `tar -xzf` takes one file out of
 * it by hand. The reader takes plain files only, and an archive only with its end (a zero block
 * after the last entry): a file cut at an entry's boundary is incomplete, not shorter.
 */
import tar from 'tar-stream';

const BLOCK = 512;

/** A tar that is damaged, cut short, or not one this module wrote. */
export class ArchiveError extends Error {}

export interface ArchiveEntry {
  name: string;
  size: number;
  body: Buffer | AsyncIterable<Buffer>;
}

const padded = (size: number) => Math.ceil(size / BLOCK) * BLOCK;

/** Resolves once `stream` may take more, or is closed. */
function drained(stream: NodeJS.EventEmitter & { destroyed: boolean }): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed) return resolve();
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * Writes one entry into `pack`. A body that is not `size` bytes fails with an error of its own; the
 * caller then destroys the pack with it (which ends the entry too).
 */
async function addEntry(pack: tar.Pack, entry: ArchiveEntry, mtime: Date): Promise<void> {
  let settle: (err?: Error | null) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    settle = (err) => (err ? reject(err) : resolve());
  });
  finished.catch(() => undefined); // awaited below, unless the body fails first
  const sink = pack.entry({ name: entry.name, size: entry.size, mode: 0o600, mtime, type: 'file' }, (err) =>
    settle(err),
  );
  sink.on('error', () => undefined); // its error also reaches the callback above, and the pack
  let written = 0;
  for await (const chunk of Buffer.isBuffer(entry.body) ? [entry.body] : entry.body) {
    if (sink.destroyed) break;
    written += chunk.length;
    if (written > entry.size) break;
    if (!sink.write(chunk)) await drained(sink);
  }
  if (written !== entry.size) throw new Error(`${entry.name} changed while it was written to the backup`);
  sink.end();
  await finished;
}

/** The bytes of a tar holding `entries` in order; an entry whose body is not `size` bytes fails. */
export async function* writeArchive(
  entries: Iterable<ArchiveEntry> | AsyncIterable<ArchiveEntry>,
  mtime = new Date(),
): AsyncGenerator<Buffer> {
  const pack = tar.pack();
  const writing = (async () => {
    try {
      for await (const entry of entries) await addEntry(pack, entry, mtime);
      pack.finalize();
    } catch (err) {
      pack.destroy(err as Error);
    }
  })();
  try {
    for await (const chunk of pack) yield chunk as Buffer;
  } finally {
    pack.destroy();
    await writing;
  }
}

export interface ReadEntry {
  name: string;
  size: number;
  /** The entry's bytes; whatever is left unread is skipped when the next entry is asked for. */
  body: AsyncIterable<Buffer>;
}

/** What tar-stream's own complaint about the bytes means to the person restoring. */
function archiveError(err: unknown): ArchiveError {
  const message = err instanceof Error ? err.message : String(err);
  return new ArchiveError(
    /unexpected end/i.test(message) ? 'it ends early (the file is incomplete)' : 'an entry header is damaged',
  );
}

/** The entries of a tar stream, in order; the stream must end with the end-of-archive block. */
export async function* readArchive(source: AsyncIterable<Buffer>): AsyncGenerator<ReadEntry> {
  const extract = tar.extract();
  let total = 0;
  /** How many zero bytes the stream has ended with so far. */
  let zeroTail = 0;
  let sourceError: unknown = null;
  const feeding = (async () => {
    try {
      for await (const chunk of source) {
        if (extract.destroyed) return;
        total += chunk.length;
        let last = chunk.length - 1;
        while (last >= 0 && chunk[last] === 0) last--;
        zeroTail = last < 0 ? zeroTail + chunk.length : chunk.length - 1 - last;
        if (!extract.write(chunk)) await drained(extract);
      }
      extract.end();
    } catch (err) {
      sourceError = err;
      extract.destroy(err as Error);
    }
  })();
  // The source's own errors (reading, gunzip) come out as they are; tar-stream's as an ArchiveError.
  const failure = (err: unknown) => (sourceError !== null ? sourceError : archiveError(err));
  const entries = extract[Symbol.asyncIterator]();
  let end = 0;
  try {
    for (;;) {
      let next: IteratorResult<tar.Entry>;
      try {
        next = await entries.next();
      } catch (err) {
        throw failure(err);
      }
      if (next.done) break;
      const entry = next.value;
      const { name, size = 0, type } = entry.header;
      if (type !== 'file') throw new ArchiveError('it holds an entry that is not a plain file');
      // tar-stream's entry stream knows where its header starts in the archive.
      end = (entry as tar.Entry & { offset: number }).offset + BLOCK + padded(size);
      const chunks = entry[Symbol.asyncIterator]();
      const nextChunk = async (): Promise<IteratorResult<Buffer>> => {
        try {
          return await chunks.next();
        } catch (err) {
          throw failure(err);
        }
      };
      let read = false;
      const body = (async function* () {
        for (let chunk = await nextChunk(); !chunk.done; chunk = await nextChunk()) yield chunk.value;
        read = true;
      })();
      yield { name, size, body };
      // Whatever was left unread is skipped (tar-stream waits until an entry's bytes are taken).
      while (!read) read = (await nextChunk()).done === true;
    }
    if (total - end < BLOCK || zeroTail < total - end) {
      throw new ArchiveError('it ends early (the file is incomplete)');
    }
  } finally {
    // Stops the source (a file stream is closed) when the reader ends or is let go early.
    extract.destroy();
    await feeding;
  }
}

/**
 * Uploads and downloads (ADR 024). An upload is streamed to a temporary file under a generated
 * name, counted and hashed on the way, refused past the size limit (413), then kept only when its
 * name's extension is allowed (docs/product/validation.md#attachments) AND its content agrees; the name it came with is data only.
 * A download needs an address the server signed for a few minutes, handed out only inside answers
 * to those who may see the file: a plain `<a href>` carries no token.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, opendir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isAllowedAttachment, ResultCode, type FileLink, type FileRef } from '@portal/contracts';
import type { StoredFileRef } from '../../db/schema.js';
import type { UploadLimits } from '../../platform/config.js';
import { AppError } from '../../platform/errors.js';
import type { Metrics } from '../../platform/metrics.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import { checkContent } from './content-check.js';
import type { FilesRepository } from './files.repository.js';

const ADDR = /^files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
/** How long a signed download address works. */
const LINK_SECONDS = 600;
const MAX_NAME = 120;

/**
 * The name to keep for an uploaded file: its last path segment (either separator), without
 * control or bidirectional-override characters, at most 120 characters with its extension kept;
 * null when nothing usable is left (empty, `.`, `..`).
 */
export function cleanFileName(raw: string): string | null {
  const last = raw.split(/[/\\]/).pop() ?? '';
  const name = last
    .normalize('NFC')
    // Control characters (C0 and DEL) and the bidirectional overrides that disguise an extension.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  if (name === '' || /^\.+$/.test(name)) return null;
  if ([...name].length <= MAX_NAME) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot) : '';
  return [...name.slice(0, dot > 0 ? dot : name.length)].slice(0, MAX_NAME - [...ext].length).join('') + ext;
}

export interface Upload {
  file: NodeJS.ReadableStream & { truncated?: boolean };
  filename: string;
}

export interface FilesServiceDeps {
  repo: FilesRepository;
  dir: string;
  key: Uint8Array;
  /** The largest upload; the stream is cut there and answered 413. */
  maxBytes: number;
  /** Each user's uploads an hour and a day, and how long an upload nothing names is kept. */
  limits: UploadLimits;
  limiter: Pick<RateLimiter, 'take' | 'giveBack'>;
  metrics: Pick<Metrics, 'uploadRefused' | 'filesRemoved'>;
  now?: () => number;
}

/** Uploads that are tenants' logos, and the media types a logo may be. */
export const LOGO_PURPOSE = 'logo';
const LOGO_TYPES = new Set(['image/png', 'image/jpeg']);
/** Files a housekeeping round removes at most, per statement. */
const SWEEP_BATCH = 500;
/** A temporary file this old belongs to no upload still running (a process stopped mid-upload left it). */
const STALE_TEMP_HOURS = 24;
const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Bytes are counted against the limits in KiB, rounded up: a day's allowance fits the counter's integer. */
const kib = (bytes: number) => Math.ceil(bytes / 1024);
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

export function createFilesService({
  repo,
  dir,
  key,
  maxBytes,
  limits,
  limiter,
  metrics,
  now = Date.now,
}: FilesServiceDeps) {
  const sign = (id: string, expires: number) =>
    createHmac('sha256', key).update(`${id}.${expires}`).digest('base64url');
  const refused = (key: 'fileRefused' | 'fileNameInvalid', name: string) => {
    metrics.uploadRefused('type');
    return new AppError(ResultCode.BAD_REQUEST, key, { name });
  };

  /**
   * Counts an upload of at most `bytes` against the user's limits, in one step on every instance
   * (platform/rate-limit.ts `take`), or refuses it with 429 naming the limit. Every attempt counts
   * towards the number of files; the bytes an upload did not keep are given back afterwards.
   */
  async function allow(userId: number, bytes: number) {
    const quotas = [
      { reason: 'files_per_hour', key: 'uploadFilesPerHour', params: { limit: limits.filesPerHour } },
      { reason: 'files_per_day', key: 'uploadFilesPerDay', params: { limit: limits.filesPerDay } },
      { reason: 'bytes_per_hour', key: 'uploadBytesPerHour', params: { mb: mb(limits.bytesPerHour) } },
      { reason: 'bytes_per_day', key: 'uploadBytesPerDay', params: { mb: mb(limits.bytesPerDay) } },
    ] as const;
    const result = await limiter.take([
      { key: `upload:files:h:${userId}`, amount: 1, limit: limits.filesPerHour, windowSeconds: 3600 },
      { key: `upload:files:d:${userId}`, amount: 1, limit: limits.filesPerDay, windowSeconds: 86_400 },
      {
        key: `upload:kib:h:${userId}`,
        amount: kib(bytes),
        limit: kib(limits.bytesPerHour),
        windowSeconds: 3600,
      },
      {
        key: `upload:kib:d:${userId}`,
        amount: kib(bytes),
        limit: kib(limits.bytesPerDay),
        windowSeconds: 86_400,
      },
    ]);
    if ('refused' in result) {
      const q = quotas[result.refused]!;
      metrics.uploadRefused(q.reason);
      throw new AppError(ResultCode.TOO_MANY_REQUESTS, q.key, q.params, {
        'retry-after': String(Math.max(1, Math.ceil(result.retrySeconds))),
      });
    }
    return result.taken.filter((t) => t.key.startsWith('upload:kib:'));
  }

  /** Removes stored files by id from the disk; the bytes they held. */
  async function unlink(ids: string[]): Promise<number> {
    let bytes = 0;
    for (const id of ids) {
      const at = join(dir, id);
      bytes += await stat(at).then(
        (s) => s.size,
        () => 0,
      );
      await rm(at, { force: true });
    }
    return bytes;
  }

  return {
    maxBytes,

    /**
     * Keeps an uploaded file of `owner` for `purpose`; its id, stored path and name. `atMostBytes`
     * (the request's length, or a smaller limit of the caller's) bounds the file, so the user's
     * limits are checked before a byte is written.
     */
    async store(
      owner: { tenantId: number; userId: number },
      purpose: string,
      upload: Upload,
      atMostBytes?: number,
    ): Promise<{ id: string; addr: string; fileName: string }> {
      const fileName = cleanFileName(upload.filename);
      if (!fileName) throw refused('fileNameInvalid', upload.filename.slice(0, 60));
      if (!isAllowedAttachment(fileName)) throw refused('fileRefused', fileName);
      const bound = atMostBytes && atMostBytes > 0 ? Math.min(maxBytes, atMostBytes) : maxBytes;
      const reserved = await allow(owner.userId, bound);
      await mkdir(dir, { recursive: true });
      const id = randomUUID();
      const temp = join(dir, `.upload-${id}`);
      const hash = createHash('sha256');
      let size = 0;
      let kept = false;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(upload.file, count, createWriteStream(temp, { flags: 'wx' }));
        if (upload.file.truncated) {
          metrics.uploadRefused('too_large');
          throw new AppError(ResultCode.PAYLOAD_TOO_LARGE, 'fileTooLarge', { mb: Math.round(maxBytes / 2 ** 20) });
        }
        const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
        const mediaType = size > 0 ? await checkContent(temp, ext) : null;
        if (!mediaType) throw refused('fileRefused', fileName);
        await rename(temp, join(dir, id));
        try {
          await repo.insert({
            id,
            tenantId: owner.tenantId,
            ownerId: owner.userId,
            purpose,
            fileName,
            mediaType,
            size,
            sha256: hash.digest('hex'),
          });
        } catch (err) {
          // No row, no file: the disk keeps only what the database names.
          await rm(join(dir, id), { force: true });
          throw err;
        }
        kept = true;
        return { id, addr: `files/${id}`, fileName };
      } finally {
        await rm(temp, { force: true });
        // What was counted and not kept goes back: all of it when the upload was refused. Should the
        // database not answer, the count stays higher than it need be, never lower.
        const used = kept ? kib(size) : 0;
        await limiter
          .giveBack(reserved.map((t) => ({ ...t, amount: Math.max(0, t.amount - used) })))
          .catch(() => undefined);
      }
    },

    /**
     * Housekeeping: removes the uploads nothing names (no reply, notice, agreement, setting, page,
     * layout or menu entry) once they are `limits.unusedHours` old, rows first and then their files;
     * what it removed.
     */
    async removeUnused(): Promise<{ files: number; bytes: number }> {
      let files = 0;
      let bytes = 0;
      for (;;) {
        const gone = await repo.removeUnreferenced(limits.unusedHours, SWEEP_BATCH);
        await unlink(gone.map((f) => f.id));
        files += gone.length;
        bytes += gone.reduce((n, f) => n + f.size, 0);
        if (gone.length < SWEEP_BATCH) break;
      }
      if (files > 0) metrics.filesRemoved('unreferenced', files, bytes);
      return { files, bytes };
    },

    /**
     * Housekeeping: removes files on disk that no row names (a process stopped between writing a
     * file and recording it, or a row deleted while its file could not be) once they are as old as
     * the grace period, and temporary files of uploads long over; what it removed.
     */
    async removeOrphans(): Promise<{ files: number; bytes: number }> {
      const before = now() - limits.unusedHours * 3_600_000;
      const staleTemp = now() - Math.max(limits.unusedHours, STALE_TEMP_HOURS) * 3_600_000;
      let files = 0;
      let bytes = 0;
      const old = async (name: string, than: number) =>
        stat(join(dir, name)).then(
          (s) => s.isFile() && s.mtimeMs < than,
          () => false,
        );
      const check = async (names: string[]) => {
        const known = await repo.existing(names);
        const orphans: string[] = [];
        for (const name of names) if (!known.has(name) && (await old(name, before))) orphans.push(name);
        bytes += await unlink(orphans);
        files += orphans.length;
      };
      let folder;
      try {
        folder = await opendir(dir);
      } catch {
        return { files, bytes };
      }
      let batch: string[] = [];
      for await (const entry of folder) {
        if (STORED_NAME.test(entry.name)) batch.push(entry.name);
        else if (entry.name.startsWith('.upload-') && (await old(entry.name, staleTemp))) {
          bytes += await unlink([entry.name]);
          files += 1;
        }
        if (batch.length === SWEEP_BATCH) {
          await check(batch);
          batch = [];
        }
      }
      await check(batch);
      if (files > 0) metrics.filesRemoved('orphaned', files, bytes);
      return { files, bytes };
    },

    /** The files a reply names, each the caller's own upload for `purpose`; 400 for any other. */
    async own(owner: { tenantId: number; userId: number }, purpose: string, refs: FileRef[]): Promise<StoredFileRef[]> {
      if (refs.length === 0) return [];
      const ids = refs.map((r) => ADDR.exec(r.addr)?.[1]);
      if (ids.some((id) => !id)) throw new AppError(ResultCode.BAD_REQUEST, 'fileNotYours');
      const found = new Map(
        (await repo.owned(owner.tenantId, owner.userId, purpose, ids as string[])).map((f) => [f.id, f.fileName]),
      );
      return (ids as string[]).map((id) => {
        const fileName = found.get(id);
        if (fileName === undefined) throw new AppError(ResultCode.BAD_REQUEST, 'fileNotYours');
        return { addr: `files/${id}`, fileName };
      });
    },

    /** A stored file's reference with its download address, signed for LINK_SECONDS. */
    link(ref: StoredFileRef): FileLink {
      const id = ADDR.exec(ref.addr)?.[1];
      if (!id) return { ...ref, url: '' };
      const expires = Math.floor(now() / 1000) + LINK_SECONDS;
      return { ...ref, url: `/api/resources/${ref.addr}?e=${expires}&s=${sign(id, expires)}` };
    },

    /**
     * A tenant's logo (ADR 036): an upload for `logo` whose content is a PNG or JPEG image, open to
     * anyone (the login page shows it); null for any other file.
     */
    async openLogo(id: string) {
      if (!/^[0-9a-f-]{36}$/.test(id)) return null;
      const row = await repo.byId(id);
      if (!row || row.purpose !== LOGO_PURPOSE || !LOGO_TYPES.has(row.mediaType)) return null;
      return { ...row, stream: () => createReadStream(join(dir, id)) };
    },

    /** The file a signed download address names, while the signature holds; else null. */
    async open(id: string, expires: string | undefined, signature: string | undefined) {
      const e = Number(expires);
      if (!/^[0-9a-f-]{36}$/.test(id) || !Number.isSafeInteger(e) || e < now() / 1000 || !signature) return null;
      const want = Buffer.from(sign(id, e));
      const got = Buffer.from(signature);
      if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
      const row = await repo.byId(id);
      return row && { ...row, stream: () => createReadStream(join(dir, id)) };
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;

/**
 * Uploads and downloads (ADR 024). An upload is streamed to a temporary file under a generated
 * name, counted and hashed on the way, refused past the size limit (413), then kept only when its
 * name's extension is allowed (§5) AND its content agrees; the name it came with is data only.
 * A download needs an address the server signed for a few minutes, handed out only inside answers
 * to those who may see the file: a plain `<a href>` carries no token.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isAllowedAttachment, ResultCode, type FileLink, type FileRef } from '@portal/contracts';
import type { StoredFileRef } from '../../db/schema.js';
import { AppError } from '../../platform/errors.js';
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
  now?: () => number;
}

/** Uploads that are tenants' logos, and the media types a logo may be. */
export const LOGO_PURPOSE = 'logo';
const LOGO_TYPES = new Set(['image/png', 'image/jpeg']);

export function createFilesService({ repo, dir, key, maxBytes, now = Date.now }: FilesServiceDeps) {
  const sign = (id: string, expires: number) =>
    createHmac('sha256', key).update(`${id}.${expires}`).digest('base64url');
  const refused = (key: 'fileRefused' | 'fileNameInvalid', name: string) =>
    new AppError(ResultCode.BAD_REQUEST, key, { name });

  return {
    maxBytes,

    /** Keeps an uploaded file of `owner` for `purpose`; its stored path and name. */
    async store(owner: { tenantId: number; userId: number }, purpose: string, upload: Upload): Promise<FileRef> {
      const fileName = cleanFileName(upload.filename);
      if (!fileName) throw refused('fileNameInvalid', upload.filename.slice(0, 60));
      if (!isAllowedAttachment(fileName)) throw refused('fileRefused', fileName);
      await mkdir(dir, { recursive: true });
      const id = randomUUID();
      const temp = join(dir, `.upload-${id}`);
      const hash = createHash('sha256');
      let size = 0;
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
          throw new AppError(ResultCode.PAYLOAD_TOO_LARGE, 'fileTooLarge', { mb: Math.round(maxBytes / 2 ** 20) });
        }
        const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
        const mediaType = size > 0 ? await checkContent(temp, ext) : null;
        if (!mediaType) throw refused('fileRefused', fileName);
        await rename(temp, join(dir, id));
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
        return { addr: `files/${id}`, fileName };
      } finally {
        await rm(temp, { force: true });
      }
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
     * A tenant's logo (issue 20): an upload for `logo` whose content is a PNG or JPEG image, open to
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

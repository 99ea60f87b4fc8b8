import multipart from '@fastify/multipart';
import { Envelope, ResultCode, UploadedPath } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../platform/errors.js';
import { ok } from '../../platform/reply.js';
import type { FilesService } from './files.service.js';

/** uploadReplyFile: one multipart part `file` → `data` = its stored path (docs/api.md). */
export const uploadRoutes: FastifyPluginAsyncTypebox<{ files: FilesService }> = async (app, { files }) => {
  // Multipart only here: every other route keeps to JSON. One file, no other fields.
  await app.register(multipart, {
    limits: { fileSize: files.maxBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 50 },
  });

  app.post(
    '/api/front/letter/uploadReplyFile',
    { preHandler: app.authenticate, schema: { response: { 200: Envelope(UploadedPath) } } },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(ResultCode.BAD_REQUEST, 'fileMissing');
      const part = await req.file();
      if (!part || part.fieldname !== 'file') throw new AppError(ResultCode.BAD_REQUEST, 'fileMissing');
      const s = req.session!;
      // The request's length bounds the file: the user's upload limits are checked before it is written.
      const length = Number(req.headers['content-length']);
      const stored = await files.store({ tenantId: s.tenantId, userId: s.userId }, 'reply', part, length || undefined);
      return ok(req, stored.addr);
    },
  );
};

/** RFC 5987 ext-value characters: encodeURIComponent leaves ' ( ) * as they are, which it must not. */
const rfc5987 = (name: string) =>
  encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `/api/resources/files/{id}` (docs/product/calls.md#downloads attachment downloads): only with a signed address the server
 * handed out; always as an attachment, never rendered, whatever the file holds.
 */
export const downloadRoutes: FastifyPluginAsyncTypebox<{ files: FilesService }> = async (app, { files }) => {
  app.get(
    '/api/resources/files/:id',
    {
      schema: {
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({
          e: Type.Optional(Type.String({ maxLength: 20 })),
          s: Type.Optional(Type.String({ maxLength: 64 })),
        }),
      },
    },
    async (req, reply) => {
      const file = await files.open(req.params.id, req.query.e, req.query.s);
      if (!file) throw new AppError(ResultCode.NOT_FOUND, 'notFound');
      const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(file.fileName)}`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.stream());
    },
  );

  // A tenant's logo: an image, shown inline by the login page and the shell; its address never changes content.
  app.get(
    '/api/resources/logos/:id',
    { schema: { params: Type.Object({ id: Type.String({ maxLength: 64 }) }) } },
    async (req, reply) => {
      const file = await files.openLogo(req.params.id);
      if (!file) throw new AppError(ResultCode.NOT_FOUND, 'notFound');
      return reply
        .header('content-type', file.mediaType)
        .header('content-length', String(file.size))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(file.stream());
    },
  );
};

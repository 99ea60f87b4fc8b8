/**
 * Every way a failure reaches a client ends in the `{status, message, data: null}` envelope, in the
 * request's language, without internals: errors thrown by routes and hooks (AppError, validation,
 * parsing), unknown paths, what Fastify's router refuses before any route runs (a URL that is no
 * valid URL component, a path parameter too long), and what Node's HTTP parser refuses before
 * Fastify sees a request (headers or URL over 16 KB, malformed requests, timeouts).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ResultCode, httpStatusOf } from '@portal/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { AppError } from './errors.js';
import { describeSchemaIssue, langOf, t, type Lang, type MessageKey } from './i18n.js';
import { apiSecurityHeaders } from './security-headers.js';

const envelope = (code: number, message: string, data: unknown = null) => ({ status: code, message, data });

/** The language a raw request line or URL asks for, when its query could not be parsed. */
const langOfUrl = (url: string | undefined): Lang => (/[?&]language=eng(?:[&#\s]|$)/.test(url ?? '') ? 'en' : 'zh');

/**
 * The issue to tell. Without a union (anyOf) Ajv reports one, the first. Under a union it reports
 * each branch's first failure: the branch that was meant got furthest into the value, so the
 * deepest issue is told (a widget's bad setting, `widgets.3.props.points`, rather than another
 * branch's `kind`); of equally deep ones, the first.
 */
function telling<T extends { keyword: string; instancePath?: string }>(issues: T[]): T {
  const depth = (i: T) => (i.instancePath ?? '').split('/').length;
  const told = issues.filter((i) => i.keyword !== 'anyOf');
  return told.reduce((best, i) => (depth(i) > depth(best) ? i : best), told[0] ?? issues[0]!);
}

/**
 * What the multipart reader (busboy) throws, with no status of its own, on a body that breaks the
 * format (ends early, a part's headers malformed): the client's fault on every upload route.
 */
const MULTIPART_FAULT = /^(?:Unexpected end of (?:multipart data|form)|Malformed part header|Multipart: )/;
const isMultipart = (req: FastifyRequest) =>
  /^multipart\/form-data\s*(?:;|$)/i.test(String(req.headers['content-type'] ?? ''));

function classify(
  error: FastifyError | AppError,
  lang: Lang,
  multipart = false,
): { code: number; message: string } | null {
  if (error instanceof AppError) return { code: error.code, message: t(lang, error.key, error.params) };
  if (multipart && error.statusCode === undefined && MULTIPART_FAULT.test(error.message)) {
    return { code: ResultCode.BAD_REQUEST, message: t(lang, 'multipartMalformed') };
  }
  if (error.validation && error.validation.length > 0) {
    const detail = describeSchemaIssue(telling(error.validation), error.validationContext ?? 'body', lang);
    return { code: ResultCode.BAD_REQUEST, message: t(lang, 'badRequest', { detail }) };
  }
  const known: Record<string, [number, MessageKey]> = {
    FST_ERR_CTP_BODY_TOO_LARGE: [ResultCode.PAYLOAD_TOO_LARGE, 'bodyTooLarge'],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupportedMedia'],
    FST_ERR_BAD_URL: [ResultCode.BAD_REQUEST, 'badUrl'],
    FST_ERR_MAX_PARAM_LENGTH: [414, 'urlTooLong'],
  };
  const hit = error.code ? known[error.code] : undefined;
  if (hit) return { code: hit[0], message: t(lang, hit[1]) };
  if (error.statusCode === 400 && (error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError)) {
    return { code: ResultCode.BAD_REQUEST, message: t(lang, 'badJson') };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { code: error.statusCode, message: t(lang, 'badRequestGeneric') };
  }
  return null;
}

function answer(error: FastifyError | AppError, req: FastifyRequest, reply: FastifyReply, lang: Lang) {
  const known = classify(error, lang, isMultipart(req));
  if (!known) req.log.error({ err: error }, 'unhandled error');
  const { code, message } = known ?? { code: ResultCode.SERVER_ERROR, message: t(lang, 'serverError') };
  if (error instanceof AppError && error.headers) reply.headers(error.headers);
  const data = error instanceof AppError ? (error.data ?? null) : null;
  return reply.code(httpStatusOf(code)).send(envelope(code, message, data));
}

/** Routes' and hooks' errors, and unknown paths. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, req, reply) => answer(error, req, reply, langOf(req.query)));
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send(envelope(ResultCode.NOT_FOUND, t(langOf(req.query), 'notFound'))),
  );
}

const API_HEADERS = apiSecurityHeaders();

/** Fastify's `frameworkErrors`: what the router refuses before a route (and its hooks) exists. */
export const frameworkErrors: FastifyServerOptions['frameworkErrors'] = (error, req, reply) =>
  answer(error, req, reply.headers(API_HEADERS), langOfUrl(req.raw.url));

const CLIENT_ERRORS: Record<string, [number, MessageKey]> = {
  HPE_HEADER_OVERFLOW: [431, 'headersTooLarge'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'requestTimeout'],
};

/** Node's `clientError`: a request its HTTP parser refused, answered on the raw socket. */
export function clientErrorHandler(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // As Node's own handler: not in the middle of an answer already being written on this socket.
  const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inProgress?.headersSent) {
    const [code, key] = CLIENT_ERRORS[err.code ?? ''] ?? [ResultCode.BAD_REQUEST, 'badHttp'];
    // The request line, if it arrived, says which language the answer is in.
    const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : null;
    const firstLine = raw?.subarray(0, 8192).toString('latin1').split('\r\n', 1)[0];
    const body = JSON.stringify(envelope(code, t(langOfUrl(firstLine), key)));
    const headers = Object.entries(API_HEADERS)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(
      `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\n${headers}` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

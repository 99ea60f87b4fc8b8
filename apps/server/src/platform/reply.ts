import type { FastifyRequest } from 'fastify';
import { langOf, t } from './i18n.js';

/** The success envelope, with the message in the request's language. */
export function ok<T>(req: FastifyRequest, data: T) {
  return { status: 200, message: t(langOf(req.query), 'ok'), data };
}

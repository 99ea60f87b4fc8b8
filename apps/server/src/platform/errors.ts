import { ResultCode, httpStatusOf } from '@portal/contracts';
import type { MessageKey } from './i18n.js';

/**
 * A failure the client is meant to see: a result code of docs/product/errors.md#result-codes (or ours) and a message key from
 * the server's catalogue. The one error handler turns it into the `{status, message, data}` envelope;
 * `data` is null unless the refusal carries what the client needs next (a sign-in's factor challenge).
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: MessageKey,
    readonly params?: Record<string, string | number>,
    readonly headers?: Record<string, string>,
    readonly data?: unknown,
  ) {
    super(key);
  }

  get httpStatus(): number {
    return httpStatusOf(this.code);
  }
}

export const errors = {
  badRequest: (detail: string) => new AppError(ResultCode.BAD_REQUEST, 'badRequest', { detail }),
  unauthorized: () => new AppError(ResultCode.UNAUTHORIZED, 'unauthorized'),
  noPermission: () => new AppError(ResultCode.NO_PERMISSION, 'noPermission'),
  notFound: () => new AppError(ResultCode.NOT_FOUND, 'notFound'),
  tooManyRequests: (retryAfterSeconds: number) =>
    new AppError(ResultCode.TOO_MANY_REQUESTS, 'tooManyRequests', undefined, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    }),
};

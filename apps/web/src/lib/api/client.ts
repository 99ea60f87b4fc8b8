/**
 * The one HTTP client: signs every /api call (docs/api.md#every-call), adds the token and the language,
 * enforces the configured timeout, unwraps the `{status, message, data}` envelope, and hands every
 * non-200 code to the one failure handler (docs/product/errors.md#result-codes).
 */
import { canonicalParams, ResultCode, signingText, SIGNING_HEADERS } from '@portal/contracts';
import { runtimeConfig } from '../config';
import { hmacSha256Hex, randomId } from '../crypto';
import { apiLanguage, i18n } from '../i18n';
import { useSession } from '../session';
import { handleFailure, type FailurePresentation } from './failures';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The one failure handler has told the user already (docs/product/errors.md#result-codes); a caller must not say it again. */
    readonly shown = false,
    /** What the refusal carries for the next step (a sign-in's factor challenge, 40308); else undefined. */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** What to show for a failure where the page itself shows it (an error page, a form's message). */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** What a caller that tells the user itself should say, or null when the handler already did. */
export const ownMessage = (err: unknown): string | null =>
  err instanceof ApiError && err.shown ? null : messageOf(err);

type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: Record<string, unknown>;
  /** A multipart upload instead of a JSON body: signed over the query only (docs/api.md#every-call). */
  form?: FormData;
  /** How ordinary failures are shown (docs/product/errors.md#result-codes); the logouts, 500 and 40303 are always handled. */
  failures?: FailurePresentation;
  /** Send no token even when signed in (login, captcha). */
  anonymous?: boolean;
  /** Already repeated after a step-up: a second 40309 is a failure like any other. */
  steppedUp?: boolean;
}

/**
 * Asks the person to prove a factor (or their password) again and says whether they did; set by
 * the signed-in app (features/factors), so a sensitive operator action refused with 40309 is
 * repeated once after it (ADR 051).
 */
let stepUp: (() => Promise<boolean>) | null = null;
export function setStepUpHandler(handler: (() => Promise<boolean>) | null): void {
  stepUp = handler;
}

export function signHeaders(path: string, query: Query, body?: Record<string, unknown>): Record<string, string> {
  const ts = String(Date.now());
  const nonce = randomId(24);
  const text = signingText(ts, nonce, path, canonicalParams(query, body ?? null));
  return {
    [SIGNING_HEADERS.timestamp]: ts,
    [SIGNING_HEADERS.nonce]: nonce,
    [SIGNING_HEADERS.signature]: hmacSha256Hex(runtimeConfig().signSecret, text),
  };
}

/** Signs, sends and parses one call; a network failure or timeout is an ApiError with status 0. */
async function send(path: string, opts: RequestOptions): Promise<{ res: Response; body: unknown }> {
  const cfg = runtimeConfig();
  const query: Query = { ...opts.query, language: apiLanguage() };
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined && v !== '') qs.set(k, String(v));
  const headers: Record<string, string> = { ...signHeaders(path, query, opts.body), accept: 'application/json' };
  if (opts.body) headers['content-type'] = 'application/json';
  const token = useSession.getState().token;
  if (token && !opts.anonymous) headers[SIGNING_HEADERS.token] = token;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), cfg.requestTimeoutMs);
  let res: Response;
  try {
    res = await fetch(`${cfg.baseurl.replace(/\/$/, '')}${path}?${qs}`, {
      method: opts.method ?? (opts.body || opts.form ? 'POST' : 'GET'),
      headers,
      body: opts.form ?? (opts.body ? JSON.stringify(opts.body) : null),
      signal: controller.signal,
    });
  } catch (err) {
    const message = controller.signal.aborted ? i18n.t('errors.timeout') : i18n.t('errors.network');
    const shown = handleFailure(
      0,
      err instanceof Error && !controller.signal.aborted ? err.message : message,
      opts.failures,
    );
    throw new ApiError(0, message, shown);
  } finally {
    clearTimeout(timer);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  return { res, body };
}

type Envelope<T> = { status?: number; message?: string; data?: T };

function fail(res: Response, envelope: Envelope<unknown> | null, how?: FailurePresentation): never {
  const status = typeof envelope?.status === 'number' ? envelope.status : res.status >= 500 ? 500 : res.status;
  // A server error is 服务器错误 whatever the server (or a proxy in front of it) wrote (docs/product/errors.md#result-codes).
  const message =
    status === ResultCode.SERVER_ERROR
      ? i18n.t('errors.server')
      : envelope?.message || res.statusText || i18n.t('errors.network');
  throw new ApiError(status, message, handleFailure(status, message, how), envelope?.data ?? undefined);
}

/** A portal call: unwraps `{status, message, data}` and hands every non-200 code to docs/product/errors.md#result-codes. */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const { res, body } = await send(path, opts);
  const envelope = body && typeof body === 'object' ? (body as Envelope<T>) : null;
  const status = typeof envelope?.status === 'number' ? envelope.status : res.status;
  if (status === 200) return envelope?.data as T;
  if (status === ResultCode.STEP_UP_REQUIRED && stepUp && !opts.steppedUp && (await stepUp())) {
    return request<T>(path, { ...opts, steppedUp: true });
  }
  fail(res, envelope, opts.failures);
}

/**
 * A call whose answer has a protocol of its own (AJ-Captcha's `{repCode, repMsg, repData}`): the
 * body of any 2xx answer as it is; a refusal before the handler (signature, validation) as docs/product/errors.md#result-codes says.
 */
export async function requestRaw<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const { res, body } = await send(path, opts);
  if (res.ok && body !== null) return body as T;
  fail(res, body && typeof body === 'object' ? (body as Envelope<unknown>) : null, opts.failures);
}

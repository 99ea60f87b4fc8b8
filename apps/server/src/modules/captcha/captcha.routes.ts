import { createHash } from 'node:crypto';
import {
  CaptchaCheck,
  CaptchaFetch,
  CaptchaKind,
  CaptchaRepCode,
  CaptchaResponse,
  Envelope,
  ImageCaptchaData,
  ImageCaptchaQuery,
  RegisterCaptchaQuery,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { langOf, t, type MessageKey } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { BehaviourCaptchaService, CaptchaReply } from './behaviour-captcha.service.js';
import type { CaptchaService } from './captcha.service.js';

export interface CaptchaRoutesOptions {
  captcha: CaptchaService;
  behaviour: BehaviourCaptchaService;
}

/** Limits apply per client: its address and browser, not an id it could change at will. */
function clientOf(req: FastifyRequest): string {
  return createHash('sha256')
    .update(`${req.ip}|${req.headers['user-agent'] ?? ''}`)
    .digest('hex')
    .slice(0, 32);
}

export const captchaRoutes: FastifyPluginAsyncTypebox<CaptchaRoutesOptions> = async (app, { captcha, behaviour }) => {
  app.get(
    '/api/auth/kaptcha/get',
    // Each image stores a new answer for the client: a GET that changes state.
    {
      config: { changesState: true },
      schema: { querystring: ImageCaptchaQuery, response: { 200: Envelope(ImageCaptchaData) } },
    },
    async (req) => ok(req, await captcha.issue('login', req.query.data, req.ip)),
  );
  app.get(
    '/api/front/account/auth/kaptcha',
    {
      config: { changesState: true },
      schema: { querystring: RegisterCaptchaQuery, response: { 200: Envelope(ImageCaptchaData) } },
    },
    async (req) => ok(req, await captcha.issue('register', req.query.number, req.ip)),
  );

  app.post('/api/front/captcha/getCaptchaType', { schema: { response: { 200: Envelope(CaptchaKind) } } }, async (req) =>
    ok(req, behaviour.kind()),
  );

  /** AJ-Captcha's answer shape; an unexpected failure is its 9999, not the portal's 500. */
  async function answer(req: FastifyRequest, run: () => Promise<CaptchaReply>): Promise<CaptchaResponse> {
    let r: CaptchaReply;
    try {
      r = await run();
    } catch (err) {
      req.log.error({ err }, 'captcha failed');
      r = { repCode: CaptchaRepCode.ERROR, repData: null };
    }
    const repMsg = t(langOf(req.query), `captcha${r.repCode}` as MessageKey, r.param ? { 0: r.param } : undefined);
    return { repCode: r.repCode, repMsg, repData: r.repData, success: r.repCode === CaptchaRepCode.SUCCESS };
  }

  app.post(
    '/api/front/captcha/get',
    { schema: { body: CaptchaFetch, response: { 200: CaptchaResponse } } },
    async (req) => answer(req, () => behaviour.get({ captchaType: req.body.captchaType, client: clientOf(req) })),
  );
  app.post(
    '/api/front/captcha/check',
    { schema: { body: CaptchaCheck, response: { 200: CaptchaResponse } } },
    async (req) =>
      answer(req, () =>
        behaviour.check({
          captchaType: req.body.captchaType,
          pointJson: req.body.pointJson,
          token: req.body.token,
          client: clientOf(req),
        }),
      ),
  );
};

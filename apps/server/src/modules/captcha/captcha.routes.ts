import { Envelope, ImageCaptchaData, ImageCaptchaQuery } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../platform/reply.js';
import type { CaptchaService } from './captcha.service.js';

export const captchaRoutes: FastifyPluginAsyncTypebox<{ captcha: CaptchaService }> = async (app, { captcha }) => {
  app.get(
    '/api/auth/kaptcha/get',
    { schema: { querystring: ImageCaptchaQuery, response: { 200: Envelope(ImageCaptchaData) } } },
    async (req) => ok(req, await captcha.issue(req.query.data, req.ip)),
  );
};

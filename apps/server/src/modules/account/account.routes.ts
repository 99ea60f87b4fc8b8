import {
  ChangePasswordRequest,
  Envelope,
  OwnMobile,
  OwnMobileProof,
  ResetCodeRequest,
  ResetFinishRequest,
  ResetGrant,
  ResetVerifyRequest,
  UpdatePasswordBody,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf, t, type MessageKey } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { AccountService } from './account.service.js';

const done = { 200: Envelope(Type.Null()) };

/**
 * Forgot password (`/user/alteration`), change password and proving one's own mobile number
 * (验证手机号, the account dialog); paths of ours, see docs/api.md.
 */
export const accountRoutes: FastifyPluginAsyncTypebox<{ account: AccountService }> = async (app, { account }) => {
  const say = (req: { query: unknown }, key: MessageKey) => ({
    status: 200,
    message: t(langOf(req.query), key),
    data: null,
  });

  app.post('/api/front/account/reset/code', { schema: { body: ResetCodeRequest, response: done } }, async (req) => {
    const { imageCode, number, ...who } = req.body;
    await account.requestResetCode(who, { number, answer: imageCode }, req.ip);
    return say(req, 'resetCodeSent');
  });

  app.post(
    '/api/front/account/reset/verify',
    { schema: { body: ResetVerifyRequest, response: { 200: Envelope(ResetGrant) } } },
    async (req) => ok(req, { resetToken: await account.verifyResetCode(req.body, req.ip) }),
  );

  app.post('/api/front/account/reset/finish', { schema: { body: ResetFinishRequest, response: done } }, async (req) => {
    await account.finishReset(req.body.resetToken, req.body.password, req.ip);
    return say(req, 'passwordChanged');
  });

  app.post(
    '/api/front/account/auth/changePassword',
    { schema: { body: ChangePasswordRequest, response: done } },
    async (req) => {
      const { imgvercode, captchaKey, captchaVerification, ...rest } = req.body;
      await account.changeWithCredentials(
        { ...rest, captcha: { answer: imgvercode, captchaKey, verification: captchaVerification } },
        req.ip,
        req.headers['user-agent'] ?? '',
      );
      return say(req, 'passwordChanged');
    },
  );

  // 验证手机号: the state, a code to the account's own number, and the code back.
  app.get(
    '/api/front/account/mobile',
    { preHandler: app.authenticate, schema: { response: { 200: Envelope(OwnMobile) } } },
    async (req) => ok(req, await account.ownMobile(req.session!)),
  );

  app.post(
    '/api/front/account/mobile/code',
    { preHandler: app.authenticate, schema: { response: done } },
    async (req) => {
      const mobile = await account.sendOwnMobileCode(req.session!, req.ip);
      return { status: 200, message: t(langOf(req.query), 'mobileCodeSent', { mobile }), data: null };
    },
  );

  app.post(
    '/api/front/account/mobile/verify',
    { preHandler: app.authenticate, schema: { body: OwnMobileProof, response: done } },
    async (req) => {
      await account.proveOwnMobile(req.session!, req.body.smsCode, req.ip);
      return say(req, 'mobileVerified');
    },
  );

  // The change of one's own password (the header's 修改密码 dialog, docs/api.md), and the one call
  // besides logout that a session whose password someone else set may make (ADR 033).
  app.post(
    '/api/front/account/auth/updatePassword',
    {
      preHandler: app.authenticate,
      config: { pendingPasswordChange: true },
      schema: { body: UpdatePasswordBody, response: done },
    },
    async (req) => {
      await account.change(req.session!, req.body.oldPwd, req.body.newPwd, req.ip);
      return say(req, 'ok');
    },
  );
};

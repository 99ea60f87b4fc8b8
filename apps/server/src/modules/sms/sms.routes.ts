import { Envelope, isValidPhone, ResultCode, SmsRequest } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { ok } from '../../platform/reply.js';
import type { Tenants } from '../../platform/tenants.js';
import type { SmsService } from './sms.service.js';

export interface SmsRoutesOptions {
  sms: SmsService;
  /** The captcha the SMS request carries, spent whatever the outcome (wired by the app). */
  verifyHuman: (p: { number?: string | undefined; answer: string }) => Promise<boolean>;
  tenants: Pick<Tenants, 'registrableIdOf'>;
  phonePattern: string;
}

/**
 * `sendPhoneCode` (docs/product/data.md#sms-request, docs/product/calls.md#call-list; GET with a query in one reading, POST in another):
 * a valid mobile number first, then a valid captcha, then the code, within the cooldown and caps.
 */
export const smsRoutes: FastifyPluginAsyncTypebox<SmsRoutesOptions> = async (app, opts) => {
  const send = async (req: FastifyRequest, input: SmsRequest) => {
    if (!isValidPhone(input.phone, opts.phonePattern)) throw new AppError(ResultCode.BAD_REQUEST, 'phoneInvalid');
    // Codes here are registration codes: only where one may register (not the platform tenant, not a disabled one).
    const tenantId = await opts.tenants.registrableIdOf(input.tenantCode);
    if (!(await opts.verifyHuman({ number: input.number, answer: input.imageCode }))) {
      throw new AppError(ResultCode.BAD_REQUEST, 'humanCheckFailed');
    }
    await opts.sms.sendCode(tenantId, input.phone, input.type, req.ip);
    return ok(req, null);
  };
  const response = { 200: Envelope(Type.Null()) };
  // A GET that sends a text message (docs/product/calls.md#call-list allows GET): its nonce is checked like a write's.
  app.get(
    '/api/front/member/sendPhoneCode',
    { config: { changesState: true }, schema: { querystring: SmsRequest, response } },
    (req) => send(req, req.query),
  );
  app.post('/api/front/member/sendPhoneCode', { schema: { body: SmsRequest, response } }, (req) => send(req, req.body));
};

import {
  AgreementData,
  AgreementQuery,
  CheckOnlyUserData,
  CheckOnlyUserQuery,
  CompanyRegistration,
  Envelope,
  MemberRegistration,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf, t } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { RegistrationService } from './registration.service.js';

const done = { 200: Envelope(Type.Null()) };

/** Registration (docs/product/calls.md#call-list), in the signed /api scope; all public. */
export const registrationRoutes: FastifyPluginAsyncTypebox<{ registration: RegistrationService }> = async (
  app,
  { registration },
) => {
  app.post(
    '/api/front/member/registerMember',
    { schema: { body: MemberRegistration, response: done } },
    async (req) => {
      await registration.registerMember(req.body, req.ip);
      return { status: 200, message: t(langOf(req.query), 'registered'), data: null };
    },
  );

  app.post(
    '/api/front/member/registerMemberByGyszmf',
    { schema: { body: CompanyRegistration, response: done } },
    async (req) => {
      await registration.registerCompany(req.body, req.ip);
      return { status: 200, message: t(langOf(req.query), 'registered'), data: null };
    },
  );

  app.get(
    '/api/front/registerContent/getInfoByTenantCode',
    { schema: { querystring: AgreementQuery, response: { 200: Envelope(AgreementData) } } },
    async (req) =>
      ok(req, { registerAgreement: await registration.agreement(req.query.tenantCode, langOf(req.query)) }),
  );
};

/** `/sys/user/checkOnlyUser` (docs/product/calls.md#call-list): outside /api, so unsigned, as the product's path has it. */
export const checkOnlyUserRoutes: FastifyPluginAsyncTypebox<{ registration: RegistrationService }> = async (
  app,
  { registration },
) => {
  app.get(
    '/sys/user/checkOnlyUser',
    { schema: { querystring: CheckOnlyUserQuery, response: { 200: Envelope(CheckOnlyUserData) } } },
    async (req) =>
      ok(req, {
        available: await registration.usernameAvailable(req.query.tenantCode, req.query.username, req.ip),
      }),
  );
};

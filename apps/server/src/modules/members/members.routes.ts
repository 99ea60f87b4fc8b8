import {
  AppCodeParams,
  AppCodeQuery,
  ApplicationItem,
  DefaultApplyBody,
  DefaultLoginBody,
  Envelope,
  InfoQuery,
  NickNameBody,
  RoleItem,
  UserInfo,
  UserRolesQuery,
  WorkbenchItem,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { MembersService } from './members.service.js';

const done = { 200: Envelope(Type.Null()) };

/** The signed-in user's profile and what they hold (docs/product/calls.md#call-list); every call is the caller's own. */
export const membersRoutes: FastifyPluginAsyncTypebox<{ members: MembersService }> = async (app, { members }) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/front/member/front/infoV2',
    { ...auth, schema: { querystring: InfoQuery, response: { 200: Envelope(UserInfo) } } },
    async (req) => ok(req, await members.info(req.session!, langOf(req.query))),
  );

  app.get(
    '/api/front/member/getUserRolesNew',
    { ...auth, schema: { querystring: UserRolesQuery, response: { 200: Envelope(Type.Array(RoleItem)) } } },
    async (req) => ok(req, await members.roles({ ...req.session!, lang: langOf(req.query) }, req.query.userId)),
  );

  app.get(
    '/api/front/member/getWorkbenchList',
    { ...auth, schema: { response: { 200: Envelope(Type.Array(WorkbenchItem)) } } },
    async (req) => ok(req, await members.workbenches({ ...req.session!, lang: langOf(req.query) })),
  );

  app.get(
    '/api/front/apply/info/getNewApplyList',
    { ...auth, schema: { response: { 200: Envelope(Type.Array(ApplicationItem)) } } },
    async (req) => ok(req, await members.applications({ ...req.session!, lang: langOf(req.query) })),
  );

  app.get(
    '/api/front/member/checkAppCodeAuth',
    { ...auth, schema: { querystring: AppCodeQuery, response: { 200: Envelope(Type.Boolean()) } } },
    async (req) => ok(req, await members.holdsApplication(req.session!, req.query.fastAppCode)),
  );

  app.get(
    '/api/front/member/getAppNameByCode/:code',
    { ...auth, schema: { params: AppCodeParams, response: { 200: Envelope(Type.String()) } } },
    async (req) =>
      ok(req, await members.applicationName({ ...req.session!, lang: langOf(req.query) }, req.params.code)),
  );

  app.post(
    '/api/front/member/updateNickName',
    { ...auth, schema: { body: NickNameBody, response: done } },
    async (req) => {
      await members.setNickname(req.session!, req.body.userId, req.body.nickName);
      return ok(req, null);
    },
  );

  app.post(
    '/api/front/member/front/updateDefaultLogin',
    { ...auth, schema: { body: DefaultLoginBody, response: done } },
    async (req) => {
      await members.setDefaultLogin(req.session!, req.body);
      return ok(req, null);
    },
  );

  app.post(
    '/api/front/member/front/updateDefaultApply',
    { ...auth, schema: { body: DefaultApplyBody, response: done } },
    async (req) => {
      await members.setDefaultApply(req.session!, req.body.defaultApplyId);
      return ok(req, null);
    },
  );
};

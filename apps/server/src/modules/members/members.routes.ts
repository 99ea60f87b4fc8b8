import { Envelope, InfoQuery, UserInfo } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../platform/reply.js';
import type { MembersService } from './members.service.js';

export const membersRoutes: FastifyPluginAsyncTypebox<{ members: MembersService }> = async (app, { members }) => {
  app.get(
    '/api/front/member/front/infoV2',
    { preHandler: app.authenticate, schema: { querystring: InfoQuery, response: { 200: Envelope(UserInfo) } } },
    async (req) => ok(req, await members.info(req.session!)),
  );
};

import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { AccountService } from './account.service.ts';

export const accountRoutes = (service: AccountService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.accountChangePassWd, { tags: ['account'], summary: 'Change my password (ends my other sessions)' }),
      config: { access: 'signed-in' },
      handler: async (request) => {
        await service.changePassword(requireAuth(request), request.body, request.ip);
        return ok({ ok: true as const });
      },
    });
  };

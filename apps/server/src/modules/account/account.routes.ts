import { ChangePasswordBodySchema, envelopeOf } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { AccountService } from './account.service.ts';

export const accountRoutes = (service: AccountService): FastifyPluginAsyncZod =>
  async function (app) {
    app.post(
      '/account/change-pass-wd',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['account'],
          summary: 'Change my password (ends my other sessions)',
          body: ChangePasswordBodySchema,
          response: { 200: envelopeOf(z.object({ ok: z.literal(true) })) },
        },
      },
      async (request) => {
        await service.changePassword(requireAuth(request), request.body, request.ip);
        return ok({ ok: true as const });
      },
    );
  };

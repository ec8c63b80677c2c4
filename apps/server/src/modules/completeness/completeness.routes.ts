import { CompletenessQuerySchema, CompletenessSchema, envelopeOf } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { CompletenessService } from './completeness.service.ts';

/** Data completeness: every signed-in user, for the stations of their team (the superadmin: every station). */
export const completenessRoutes = (service: CompletenessService): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/ipp/completeness',
      {
        config: { access: 'signed-in', expensive: true },
        schema: {
          tags: ['ipps'],
          summary:
            "A station's data completeness over a period: per bucket the seconds online and sampling, the frames and images expected, the images received, and its hours complete / missing images / idle / offline",
          querystring: CompletenessQuerySchema,
          response: { 200: envelopeOf(CompletenessSchema) },
        },
      },
      async (request) => ok(await service.station(requireAuth(request).user, request.query)),
    );
  };

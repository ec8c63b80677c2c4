import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { CompletenessService } from './completeness.service.ts';

/** Data completeness: every signed-in user, for the stations of their team (the superadmin: every station). */
export const completenessRoutes = (service: CompletenessService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.ippCompleteness, {
        tags: ['ipps'],
        summary:
          "A station's data completeness over a period: per bucket the seconds online and sampling, the frames and images expected, the images received, and its hours complete / missing images / idle / offline",
      }),
      config: { access: 'signed-in', expensive: true },
      handler: async (request) => ok(await service.station(requireAuth(request).user, request.query)),
    });
  };

import { LabelHistoryQuerySchema, LabelHistorySchema, envelopeOf } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { LabelHistoryService } from './label-history.service.ts';

export const labelHistoryRoutes = (service: LabelHistoryService): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/roi/label-history',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['identify'],
          summary: "An ROI's label history: how it arrived, then every change of its label (who or which model, when, from, to)",
          querystring: LabelHistoryQuerySchema,
          response: { 200: envelopeOf(LabelHistorySchema) },
        },
      },
      async (request) => ok(await service.history(requireAuth(request).user, request.query.roi_id)),
    );
  };

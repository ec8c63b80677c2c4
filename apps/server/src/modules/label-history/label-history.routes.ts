import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { LabelHistoryService } from './label-history.service.ts';

export const labelHistoryRoutes = (service: LabelHistoryService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.roiLabelHistory, {
        tags: ['identify'],
        summary: "An ROI's label history: how it arrived, then every change of its label (who or which model, when, from, to)",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.history(requireAuth(request).user, request.query.roi_id)),
    });
  };

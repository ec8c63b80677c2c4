import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { ViewsService } from './views.service.ts';

/** Overview data (spec §7 Views, dashboard): every signed-in user, scoped to their team. */
export const viewsRoutes = (service: ViewsService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.viewsRoi24, {
        tags: ['views'],
        summary: 'ROIs per hour per station over the last 24 hours (followed stations first)',
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.roi24(requireAuth(request).user, request.query.group_id)),
    });

    app.route({
      ...endpoint(API.viewsRoi30, {
        tags: ['views'],
        summary: 'The last 30 local days per station: ROIs, temperature, humidity, water sampled; class distribution',
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.roi30(requireAuth(request).user, request.query)),
    });

    app.route({
      ...endpoint(API.viewsWall, { tags: ['views'], summary: "The team's latest favourite ROIs, at most the wall maximum" }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.wall(requireAuth(request).user)),
    });

    app.route({
      ...endpoint(API.viewsRois, { tags: ['views'], summary: 'The latest ROIs of the visible stations (or one)' }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.rois(requireAuth(request).user, request.query)),
    });

    app.route({
      ...endpoint(API.dashboardGetLastInsertTime, {
        tags: ['views'],
        summary:
          'When the newest image of the visible stations was captured (at, Roi_time) and when an ROI last arrived (received_at, which the overview polls to refresh)',
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.lastInsertTime(requireAuth(request).user)),
    });
  };

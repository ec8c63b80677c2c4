import {
  LastInsertSchema,
  Roi24Schema,
  Roi30QuerySchema,
  Roi30Schema,
  RoiSummarySchema,
  RoisQuerySchema,
  ViewsScopeQuerySchema,
  WallSchema,
  envelopeOf,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { ViewsService } from './views.service.ts';

/** Overview data (spec §7 Views, dashboard): every signed-in user, scoped to their team. */
export const viewsRoutes = (service: ViewsService): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/views/roi24',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['views'],
          summary: 'ROIs per hour per station over the last 24 hours (followed stations first)',
          querystring: ViewsScopeQuerySchema,
          response: { 200: envelopeOf(Roi24Schema) },
        },
      },
      async (request) => ok(await service.roi24(requireAuth(request).user, request.query.group_id)),
    );

    app.get(
      '/views/roi30',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['views'],
          summary: 'The last 30 local days per station: ROIs, temperature, humidity, water sampled; class distribution',
          querystring: Roi30QuerySchema,
          response: { 200: envelopeOf(Roi30Schema) },
        },
      },
      async (request) => ok(await service.roi30(requireAuth(request).user, request.query)),
    );

    app.get(
      '/views/wall',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['views'],
          summary: "The team's latest favourite ROIs, at most the wall maximum",
          response: { 200: envelopeOf(WallSchema) },
        },
      },
      async (request) => ok(await service.wall(requireAuth(request).user)),
    );

    app.get(
      '/views/rois',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['views'],
          summary: 'The latest ROIs of the visible stations (or one)',
          querystring: RoisQuerySchema,
          response: { 200: envelopeOf(z.array(RoiSummarySchema)) },
        },
      },
      async (request) => ok(await service.rois(requireAuth(request).user, request.query)),
    );

    app.get(
      '/dashboard/get-last-insert-time',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['views'],
          summary:
            'When the newest image of the visible stations was captured (at, Roi_time) and when an ROI last arrived (received_at, which the overview polls to refresh)',
          response: { 200: envelopeOf(LastInsertSchema) },
        },
      },
      async (request) => ok(await service.lastInsertTime(requireAuth(request).user)),
    );
  };

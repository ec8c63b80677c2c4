import { API, ResultCode } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendCsv } from '../../http/csv-reply.ts';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import type { BlobStore } from '../../storage/blobs.ts';
import type { RoiViewsService } from './roi-views.service.ts';
import { siteCsv } from './site-csv.ts';

export const roisRoutes = (views: RoiViewsService, blobs: BlobStore): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.roiGetSiteRoi, {
        tags: ['rois'],
        summary: "One station's histogram, top-6 classes and concentration over a period",
      }),
      config: { access: 'signed-in', expensive: true },
      handler: async (request) => {
        const {
          range: _range,
          byClass: _byClass,
          allClasses: _all,
          ...site
        } = await views.siteRoi(requireAuth(request).user, request.query);
        return ok(site);
      },
    });

    app.route({
      ...endpoint(API.roiExportSiteData, {
        tags: ['rois'],
        summary: 'CSV of a station over a period: per time bucket, ROIs per class, water sampled, concentration, telemetry',
        produces: ['text/csv'],
      }),
      config: { access: 'signed-in', expensive: true },
      handler: async (request, reply) => {
        const site = await views.siteRoi(requireAuth(request).user, request.query, true);
        return sendCsv(reply, `${site.dev_id}-${request.query.period}.csv`, siteCsv(site, request.query.tz));
      },
    });

    app.route({
      ...endpoint(API.roiGetRoiDetails, {
        tags: ['rois'],
        summary: "One ROI, its neighbours and the instrument's state when it was captured",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await views.roiDetails(requireAuth(request).user, request.query.roi_id)),
    });

    app.route({
      ...endpoint(API.roiSetFavorite, { tags: ['rois'], summary: 'Add an ROI to the Favorite gallery or take it out' }),
      config: { access: 'signed-in' },
      handler: async (request) =>
        ok(await views.setFavorite(requireAuth(request).user, request.body.roi_id, request.body.favorite)),
    });

    app.route({
      ...endpoint(API.roiFile, { tags: ['rois'], summary: 'An ROI image (original) or its WebP thumbnail, by content address' }),
      // Names are SHA-256 content addresses: unguessable, immutable, and loadable by <img> (which sends no token).
      config: { access: 'public' },
      handler: async (request, reply) => {
        const etag = `"${request.params.name}"`;
        if (request.headers['if-none-match'] === etag) return reply.code(304).send();
        const blob = await blobs.get(request.params.name);
        if (!blob) throw new AppError(ResultCode.BAD_PARAM, 'noImageResource', {}, 'name', 404);
        return reply
          .header('content-type', blob.type)
          .header('etag', etag)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .send(blob.data);
      },
    });
  };

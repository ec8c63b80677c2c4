import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendCsv } from '../../http/csv-reply.ts';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { ecologyNbssCsv, ecologySeriesCsv } from './ecology-csv.ts';
import type { EcologyService } from './ecology.service.ts';

/** Ecology products of a station (docs/ecology.md): every signed-in user, for the stations of their team. */
export const ecologyRoutes = (service: EcologyService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.ecologyGetSiteEcology, {
        tags: ['ecology'],
        summary:
          'A station over a period, for a selection of classes: concentration (ind/L), biovolume concentration (mm³/L) per time bucket and the normalized biovolume size spectrum (NBSS)',
      }),
      config: { access: 'signed-in', expensive: true },
      handler: async (request) => {
        const { range: _range, ...site } = await service.site(requireAuth(request).user, request.query);
        return ok(site);
      },
    });

    app.route({
      ...endpoint(API.ecologyExportSiteEcology, {
        tags: ['ecology'],
        summary: 'CSV of the same: table=series (one row per time bucket) or table=nbss (one row per series and size class)',
        produces: ['text/csv'],
      }),
      config: { access: 'signed-in', expensive: true },
      handler: async (request, reply) => {
        const { table, ...query } = request.query;
        const site = await service.site(requireAuth(request).user, query);
        const csv = table === 'nbss' ? ecologyNbssCsv(site, query.tz) : ecologySeriesCsv(site, query.tz);
        return sendCsv(reply, `${site.dev_id}-${query.period}-${table}.csv`, csv);
      },
    });
  };

import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { ADMINS, requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { TaxaService } from './taxa.service.ts';

/** A team's taxonomy (docs/ecotaxa.md "Taxonomy"); the mappings are read with the class list (GET /tool/sys-init). */
export const taxaRoutes = (service: TaxaService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.taxaSaveClassTaxon, {
        tags: ['identify'],
        summary:
          "Map a class to a taxon for a team (Latin name, WoRMS AphiaID, Chinese name), or reset it to the console's starter list",
      }),
      config: { access: ADMINS },
      handler: async (request) => ok(await service.save(requireAuth(request).user, request.body)),
    });
  };

import { IdBodySchema, TeamIndexQuerySchema, TeamSaveBodySchema, TeamSchema, envelopeOf } from '@ipp/contracts';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { TeamsService } from './teams.service.ts';

const OkSchema = z.object({ ok: z.literal(true) });

export const teamsRoutes = (service: TeamsService): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/group/index',
      {
        config: { access: ['superadmin', 'administrator'] },
        schema: {
          tags: ['teams'],
          summary: 'Team list (an administrator sees their own team)',
          querystring: TeamIndexQuerySchema,
          response: { 200: envelopeOf(z.array(TeamSchema)) },
        },
      },
      async (request) => {
        const { rows, total } = await service.list(requireAuth(request).user, request.query);
        return ok(rows, { count: total });
      },
    );

    app.post(
      '/group/save',
      {
        config: { access: ['superadmin'] },
        schema: {
          tags: ['teams'],
          summary: 'Create (no id) or rename a team',
          body: TeamSaveBodySchema,
          response: { 200: envelopeOf(TeamSchema) },
        },
      },
      async (request) => ok(await service.save(request.body)),
    );

    app.post(
      '/group/delete',
      {
        config: { access: ['superadmin'] },
        schema: {
          tags: ['teams'],
          summary: 'Remove a team with nothing attached',
          body: IdBodySchema,
          response: { 200: envelopeOf(OkSchema) },
        },
      },
      async (request) => {
        await service.remove(request.body.id);
        return ok({ ok: true as const });
      },
    );
  };

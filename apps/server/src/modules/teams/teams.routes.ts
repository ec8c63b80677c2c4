import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ADMINS, requireAuth } from '../../http/access.ts';
import { endpoint } from '../../http/endpoint.ts';
import { ok } from '../../http/envelope.ts';
import type { TeamsService } from './teams.service.ts';

export const teamsRoutes = (service: TeamsService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.groupIndex, { tags: ['teams'], summary: 'Team list (an administrator sees their own team)' }),
      config: { access: ADMINS },
      handler: async (request) => {
        const { rows, total } = await service.list(requireAuth(request).user, request.query);
        return ok(rows, { count: total });
      },
    });

    app.route({
      ...endpoint(API.groupSave, { tags: ['teams'], summary: 'Create (no id) or rename a team' }),
      config: { access: ['superadmin'] },
      handler: async (request) => ok(await service.save(request.body)),
    });

    app.route({
      ...endpoint(API.groupDelete, { tags: ['teams'], summary: 'Remove a team with nothing attached' }),
      config: { access: ['superadmin'] },
      handler: async (request) => {
        await service.remove(request.body.id);
        return ok({ ok: true as const });
      },
    });
  };

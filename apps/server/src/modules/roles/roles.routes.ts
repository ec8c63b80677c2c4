import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { ok } from '../../http/envelope.ts';
import type { RolesService } from './roles.service.ts';

export const rolesRoutes = (service: RolesService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.settingGetRole, {
        tags: ['roles'],
        summary: 'Roles and, for each console route, the roles that may open it',
      }),
      config: { access: 'signed-in' },
      handler: async () => ok(await service.table()),
    });

    app.route({
      ...endpoint(API.settingSaveRole, { tags: ['roles'], summary: 'Change the role lists of some routes' }),
      config: { access: ['superadmin'] },
      handler: async (request) => ok(await service.save(request.body)),
    });
  };

import { RoleSaveBodySchema, RoleTableSchema, envelopeOf } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.ts';
import type { RolesService } from './roles.service.ts';

export const rolesRoutes = (service: RolesService): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/setting/get-role',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['roles'],
          summary: 'Roles and, for each console route, the roles that may open it',
          response: { 200: envelopeOf(RoleTableSchema) },
        },
      },
      async () => ok(await service.table()),
    );

    app.post(
      '/setting/save-role',
      {
        config: { access: ['superadmin'] },
        schema: {
          tags: ['roles'],
          summary: 'Change the role lists of some routes',
          body: RoleSaveBodySchema,
          response: { 200: envelopeOf(RoleTableSchema) },
        },
      },
      async (request) => ok(await service.save(request.body)),
    );
  };

import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { ADMINS, requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { UsersService } from './users.service.ts';

export const usersRoutes = (service: UsersService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.userIndex, {
        tags: ['users'],
        summary: 'User list: search by account, email, phone (an administrator sees their own team)',
      }),
      config: { access: ADMINS },
      handler: async (request) => {
        const { rows, total } = await service.list(requireAuth(request).user, request.query);
        return ok(rows, { count: total });
      },
    });

    app.route({
      ...endpoint(API.userView, { tags: ['users'], summary: 'One user, for the edit form' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await service.view(requireAuth(request).user, request.query.id)),
    });

    app.route({
      ...endpoint(API.userSave, { tags: ['users'], summary: 'Create (no id) or edit a user' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await service.save(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.userDelete, { tags: ['users'], summary: 'Remove a user' }),
      config: { access: ADMINS },
      handler: async (request) => {
        await service.remove(requireAuth(request).user, request.body.id);
        return ok({ ok: true as const });
      },
    });
  };

import {
  IdBodySchema,
  UserIndexQuerySchema,
  UserSaveBodySchema,
  UserSchema,
  UserViewQuerySchema,
  envelopeOf,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { UsersService } from './users.service.ts';

const ADMINS = ['superadmin', 'administrator'] as const;

export const usersRoutes = (service: UsersService): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/user/index',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['users'],
          summary: 'User list: search by account, email, phone (an administrator sees their own team)',
          querystring: UserIndexQuerySchema,
          response: { 200: envelopeOf(z.array(UserSchema)) },
        },
      },
      async (request) => {
        const { rows, total } = await service.list(requireAuth(request).user, request.query);
        return ok(rows, { count: total });
      },
    );

    app.get(
      '/user/view',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['users'],
          summary: 'One user, for the edit form',
          querystring: UserViewQuerySchema,
          response: { 200: envelopeOf(UserSchema) },
        },
      },
      async (request) => ok(await service.view(requireAuth(request).user, request.query.id)),
    );

    app.post(
      '/user/save',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['users'],
          summary: 'Create (no id) or edit a user',
          body: UserSaveBodySchema,
          response: { 200: envelopeOf(UserSchema) },
        },
      },
      async (request) => ok(await service.save(requireAuth(request).user, request.body)),
    );

    app.post(
      '/user/delete',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['users'],
          summary: 'Remove a user',
          body: IdBodySchema,
          response: { 200: envelopeOf(z.object({ ok: z.literal(true) })) },
        },
      },
      async (request) => {
        await service.remove(requireAuth(request).user, request.body.id);
        return ok({ ok: true as const });
      },
    );
  };

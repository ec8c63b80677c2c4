import {
  GroupViewSaveBodySchema,
  GroupViewSchema,
  TeamQuerySchema,
  UserSettingsSaveBodySchema,
  UserSettingsSchema,
  envelopeOf,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { GroupViewService } from './group-view.service.ts';

export const groupViewRoutes = (service: GroupViewService): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/setting/get-group-view',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['group view'],
          summary: 'The stations I follow (a superadmin may name the team)',
          querystring: TeamQuerySchema,
          response: { 200: envelopeOf(GroupViewSchema) },
        },
      },
      async (request) => ok(await service.get(requireAuth(request).user, request.query.group_id)),
    );

    app.post(
      '/setting/set-group-view',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['group view'],
          summary: 'Choose the stations I follow',
          body: GroupViewSaveBodySchema,
          response: { 200: envelopeOf(GroupViewSchema) },
        },
      },
      async (request) => ok(await service.set(requireAuth(request).user, request.body)),
    );

    app.post(
      '/setting/save-user',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['group view'],
          summary: 'Save my own settings: language, component size, the stations I follow (any subset)',
          body: UserSettingsSaveBodySchema,
          response: { 200: envelopeOf(UserSettingsSchema) },
        },
      },
      async (request) => ok(await service.saveUser(requireAuth(request).user, request.body)),
    );
  };

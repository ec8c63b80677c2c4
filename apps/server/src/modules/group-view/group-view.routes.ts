import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { GroupViewService } from './group-view.service.ts';

export const groupViewRoutes = (service: GroupViewService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.settingGetGroupView, {
        tags: ['group view'],
        summary: 'The stations I follow (a superadmin may name the team)',
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.get(requireAuth(request).user, request.query.group_id)),
    });

    app.route({
      ...endpoint(API.settingSetGroupView, { tags: ['group view'], summary: 'Choose the stations I follow' }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.set(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.settingSaveUser, {
        tags: ['group view'],
        summary: 'Save my own settings: language, component size, the stations I follow (any subset)',
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.saveUser(requireAuth(request).user, request.body)),
    });
  };

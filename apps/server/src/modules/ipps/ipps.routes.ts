import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { ADMINS, requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { IppsService } from './ipps.service.ts';

export const ippsRoutes = (service: IppsService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.ippIndex, {
        tags: ['instruments'],
        summary: "Instrument list: search by site, site ID or serial (others than superadmin see their team's)",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => {
        const { rows, total } = await service.list(requireAuth(request).user, request.query);
        return ok(rows, { count: total });
      },
    });

    app.route({
      ...endpoint(API.siteIppOne, { tags: ['instruments'], summary: 'One instrument' }),
      // A read sent as POST (spec §7), so the read-only demo account may call it.
      config: { access: 'signed-in', demoAllowed: true },
      handler: async (request) => ok(await service.one(requireAuth(request).user, request.body.id)),
    });

    app.route({
      ...endpoint(API.ippSave, {
        tags: ['instruments'],
        summary: 'Register (no id: the answer carries the device key once) or configure an instrument',
      }),
      config: { access: ADMINS },
      handler: async (request) => ok(await service.save(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.ippDelete, { tags: ['instruments'], summary: 'Remove an instrument' }),
      config: { access: ADMINS },
      handler: async (request) => {
        await service.remove(requireAuth(request).user, request.body.id);
        return ok({ ok: true as const });
      },
    });

    app.route({
      ...endpoint(API.ippRotateKey, { tags: ['instruments'], summary: 'Issue a new device key (the old one stops working)' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await service.rotateKey(requireAuth(request).user, request.body.id)),
    });

    app.route({
      ...endpoint(API.ippConfigHistory, {
        tags: ['instruments'],
        summary: "An instrument's configuration versions, newest first: who changed what, when, and when the device applied it",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => {
        const { rows, total } = await service.configHistory(requireAuth(request).user, request.query);
        return ok(rows, { count: total });
      },
    });

    app.route({
      ...endpoint(API.ippApplyConfig, {
        tags: ['instruments'],
        summary: 'Set some settings on several instruments at once, each tracked applied or pending',
      }),
      config: { access: ADMINS },
      handler: async (request) => ok(await service.applyConfig(requireAuth(request).user, request.body)),
    });
  };

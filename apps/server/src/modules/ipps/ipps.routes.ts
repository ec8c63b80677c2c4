import {
  IdBodySchema,
  IppApplyConfigBodySchema,
  IppApplyConfigResultSchema,
  IppConfigChangeSchema,
  IppConfigHistoryQuerySchema,
  IppIndexQuerySchema,
  IppSaveBodySchema,
  IppSaveResultSchema,
  IppSchema,
  IppWithKeySchema,
  envelopeOf,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { IppsService } from './ipps.service.ts';

const ADMINS = ['superadmin', 'administrator'] as const;

export const ippsRoutes = (service: IppsService): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/ipp/index',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['instruments'],
          summary: "Instrument list: search by site, site ID or serial (others than superadmin see their team's)",
          querystring: IppIndexQuerySchema,
          response: { 200: envelopeOf(z.array(IppSchema)) },
        },
      },
      async (request) => {
        const { rows, total } = await service.list(requireAuth(request).user, request.query);
        return ok(rows, { count: total });
      },
    );

    app.post(
      '/site/ipp-one',
      {
        // A read sent as POST (spec §7), so the read-only demo account may call it.
        config: { access: 'signed-in', demoAllowed: true },
        schema: {
          tags: ['instruments'],
          summary: 'One instrument',
          body: IdBodySchema,
          response: { 200: envelopeOf(IppSchema) },
        },
      },
      async (request) => ok(await service.one(requireAuth(request).user, request.body.id)),
    );

    app.post(
      '/ipp/save',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['instruments'],
          summary: 'Register (no id: the answer carries the device key once) or configure an instrument',
          body: IppSaveBodySchema,
          response: { 200: envelopeOf(IppSaveResultSchema) },
        },
      },
      async (request) => ok(await service.save(requireAuth(request).user, request.body)),
    );

    app.post(
      '/ipp/delete',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['instruments'],
          summary: 'Remove an instrument',
          body: IdBodySchema,
          response: { 200: envelopeOf(z.object({ ok: z.literal(true) })) },
        },
      },
      async (request) => {
        await service.remove(requireAuth(request).user, request.body.id);
        return ok({ ok: true as const });
      },
    );

    app.post(
      '/ipp/rotate-key',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['instruments'],
          summary: 'Issue a new device key (the old one stops working)',
          body: IdBodySchema,
          response: { 200: envelopeOf(IppWithKeySchema) },
        },
      },
      async (request) => ok(await service.rotateKey(requireAuth(request).user, request.body.id)),
    );

    app.get(
      '/ipp/config-history',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['instruments'],
          summary: "An instrument's configuration versions, newest first: who changed what, when, and when the device applied it",
          querystring: IppConfigHistoryQuerySchema,
          response: { 200: envelopeOf(z.array(IppConfigChangeSchema)) },
        },
      },
      async (request) => {
        const { rows, total } = await service.configHistory(requireAuth(request).user, request.query);
        return ok(rows, { count: total });
      },
    );

    app.post(
      '/ipp/apply-config',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['instruments'],
          summary: 'Set some settings on several instruments at once, each tracked applied or pending',
          body: IppApplyConfigBodySchema,
          response: { 200: envelopeOf(IppApplyConfigResultSchema) },
        },
      },
      async (request) => ok(await service.applyConfig(requireAuth(request).user, request.body)),
    );
  };

import { TelemetryTrendQuerySchema, TelemetryTrendSchema, envelopeOf } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { TrendsService } from './trends.service.ts';

/** Engineering trends: every signed-in user, for the stations of their team (the superadmin: every station). */
export const trendsRoutes = (service: TrendsService): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/ipp/telemetry-trend',
      {
        config: { access: 'signed-in', expensive: true },
        schema: {
          tags: ['ipps'],
          summary:
            "A station's telemetry over a period: per time bucket the samples, and mean / min / max of every numeric series (board currents and voltages, CPU/GPU temperature, storage, RAM, UV-C, humidity, wiper)",
          querystring: TelemetryTrendQuerySchema,
          response: { 200: envelopeOf(TelemetryTrendSchema) },
        },
      },
      async (request) => ok(await service.telemetry(requireAuth(request).user, request.query)),
    );
  };

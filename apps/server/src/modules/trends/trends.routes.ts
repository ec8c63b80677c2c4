import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { TrendsService } from './trends.service.ts';

/** Engineering trends: every signed-in user, for the stations of their team (the superadmin: every station). */
export const trendsRoutes = (service: TrendsService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.ippTelemetryTrend, {
        tags: ['ipps'],
        summary:
          "A station's telemetry over a period: per time bucket the samples, and mean / min / max of every numeric series (board currents and voltages, CPU/GPU temperature, storage, RAM, UV-C, humidity, wiper)",
      }),
      config: { access: 'signed-in', expensive: true },
      handler: async (request) => ok(await service.telemetry(requireAuth(request).user, request.query)),
    });
  };

import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import type { LiveStreams } from './live-streams.ts';

export const eventsRoutes = (streams: LiveStreams): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.events, {
        tags: ['live'],
        summary:
          "Live events of the caller's team as Server-Sent Events (event: ipp | roi, data: LiveEvent JSON); a comment line every 20 s",
      }),
      // Streams for as long as the page is open (bounded by EVENT_STREAM_MAX_MS), so no request deadline.
      config: { access: 'signed-in', deadline: 'none', demoAllowed: true },
      handler: async (request, reply) => {
        const auth = requireAuth(request);
        streams.admit(auth);
        streams.open(request, reply, auth);
        return reply;
      },
    });
  };

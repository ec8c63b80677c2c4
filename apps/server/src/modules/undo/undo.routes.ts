import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { UndoService } from './undo.service.ts';

/** The caller's own last bulk action: only its author sees and undoes it. */
export const undoRoutes = (service: UndoService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.roiLastAction, {
        tags: ['identify'],
        summary: "The caller's last bulk action while it can be undone (null otherwise)",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.last(requireAuth(request).user)),
    });

    app.route({
      ...endpoint(API.roiUndo, {
        tags: ['identify'],
        summary:
          "Undo the caller's last bulk action: every ROI it changed goes back as it was, with its counts, unless changed since",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.undo(requireAuth(request).user, request.body.bulk_id)),
    });
  };

import { ExportBodySchema } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../clock.ts';
import { requireAuth } from '../../http/access.ts';
import type { ExportService } from './export.service.ts';

/** Exports (issue 5 "Import and export"); imports run from the command line (`npm run import`). */
export const transferRoutes = (exports: ExportService, clock: Clock): FastifyPluginAsyncZod =>
  async function (app) {
    app.post(
      '/roi/export',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['identify'],
          summary: 'A selection or a list query as CSV or as an EcoTaxa zip (TSV + images), streamed',
          body: ExportBodySchema,
        },
      },
      async (request, reply) => {
        const file = await exports.export(requireAuth(request).user, request.body, clock());
        return reply
          .header('content-type', file.type)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('x-total-count', String(file.rows))
          .header('access-control-expose-headers', 'content-disposition, x-total-count')
          .header('cache-control', 'no-store')
          .send(file.stream);
      },
    );
  };

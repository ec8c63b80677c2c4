import {
  ExportBodySchema,
  ImportProgressQuerySchema,
  ImportProgressSchema,
  ImportQuerySchema,
  ImportReportSchema,
  envelopeOf,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../clock.ts';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { parseLang } from '../../http/messages.ts';
import type { ExportService } from './export.service.ts';
import type { ImportUploadService } from './import-upload.ts';

/** Import and export (issue 5): the console's zip import (`npm run import` does the same from a folder), exports. */
export const transferRoutes = (exports: ExportService, imports: ImportUploadService, clock: Clock): FastifyPluginAsyncZod =>
  async function (app) {
    app.post(
      '/roi/import',
      {
        config: {
          access: ['superadmin', 'administrator'],
          multipart: {
            file: 'A zip: one folder of images per class, the folder naming the class (format=folders), or an EcoTaxa export: its *.tsv and the images it names (format=ecotaxa)',
          },
        },
        schema: {
          tags: ['identify'],
          summary:
            'Import a zip of class folders (as human-identified ROIs) or an EcoTaxa export (labels as it says) into a station',
          consumes: ['multipart/form-data'],
          querystring: ImportQuerySchema,
          response: { 200: envelopeOf(ImportReportSchema) },
        },
      },
      async (request) => ok(await imports.run(requireAuth(request).user, request, request.query)),
    );

    app.get(
      '/roi/import-progress',
      {
        config: { access: ['superadmin', 'administrator'] },
        schema: {
          tags: ['identify'],
          summary: "How far the caller's named import is: its phase, items done of the total, its report or error at the end",
          querystring: ImportProgressQuerySchema,
          response: { 200: envelopeOf(ImportProgressSchema) },
        },
      },
      async (request) =>
        ok(await imports.progress(requireAuth(request).user, request.query.progress_id, parseLang(request.headers['x-lang']))),
    );

    app.post(
      '/roi/export',
      {
        config: { access: 'signed-in', expensive: true },
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

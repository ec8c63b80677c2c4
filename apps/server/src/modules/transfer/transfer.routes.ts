import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import type { Clock } from '../../clock.ts';
import { ADMINS, requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { parseLang } from '../../http/messages.ts';
import type { ExportService } from './export.service.ts';
import type { ImportUploadService } from './import-upload.ts';

/** Import and export (issue 5): the console's zip import (`npm run import` does the same from a folder), exports. */
export const transferRoutes = (exports: ExportService, imports: ImportUploadService, clock: Clock): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.roiImport, {
        tags: ['identify'],
        summary:
          'Import a zip of class folders (as human-identified ROIs) or an EcoTaxa export (labels as it says) into a station',
        consumes: ['multipart/form-data'],
      }),
      config: {
        access: ADMINS,
        multipart: {
          file: 'A zip: one folder of images per class, the folder naming the class (format=folders), or an EcoTaxa export: its *.tsv and the images it names (format=ecotaxa)',
        },
      },
      handler: async (request) => ok(await imports.run(requireAuth(request).user, request, request.query)),
    });

    app.route({
      ...endpoint(API.roiImportProgress, {
        tags: ['identify'],
        summary: "How far the caller's named import is: its phase, items done of the total, its report or error at the end",
      }),
      config: { access: ADMINS },
      handler: async (request) =>
        ok(await imports.progress(requireAuth(request).user, request.query.progress_id, parseLang(request.headers['x-lang']))),
    });

    app.route({
      ...endpoint(API.roiExport, {
        tags: ['identify'],
        summary: 'A selection or a list query as CSV or as an EcoTaxa zip (TSV + images), streamed',
      }),
      config: { access: 'signed-in', expensive: true },
      handler: async (request, reply) => {
        const file = await exports.export(requireAuth(request).user, request.body, clock());
        return reply
          .header('content-type', file.type)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('x-total-count', String(file.rows))
          .header('access-control-expose-headers', 'content-disposition, x-total-count')
          .header('cache-control', 'no-store')
          .send(file.stream);
      },
    });
  };

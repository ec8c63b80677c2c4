import {
  LangEntrySchema,
  LangQuerySchema,
  TranslationSaveBodySchema,
  TranslationUploadResultSchema,
  envelopeOf,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import { readUpload } from '../../http/upload.ts';
import type { TranslationsService } from './translations.service.ts';

const FILE_MAX_BYTES = 2 * 1024 * 1024;

export const translationsRoutes = (service: TranslationsService): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/get-lang/lang',
      {
        config: { access: 'public' },
        schema: {
          tags: ['translations'],
          summary: "The server's overrides of one language's UI strings",
          querystring: LangQuerySchema,
          response: { 200: envelopeOf(z.array(LangEntrySchema)) },
        },
      },
      async (request) => {
        const { rows, total } = await service.list(request.query);
        return ok(rows, { count: total });
      },
    );

    app.post(
      '/get-lang/save',
      {
        config: { access: ['superadmin'] },
        schema: {
          tags: ['translations'],
          summary: 'Set or remove overrides (null or empty removes)',
          body: TranslationSaveBodySchema,
          response: { 200: envelopeOf(z.object({ saved: z.number().int() })) },
        },
      },
      async (request) => ok({ saved: await service.save(request.body.items) }),
    );

    app.post(
      '/upload/index',
      {
        config: { access: ['superadmin'] },
        schema: {
          tags: ['translations'],
          summary: 'Upload a translation file (multipart "file": JSON or CSV key,zh,en); dry_run=1 only previews',
          querystring: z.object({ action: z.literal('language'), dry_run: z.enum(['0', '1']).optional() }),
          response: { 200: envelopeOf(TranslationUploadResultSchema) },
        },
      },
      async (request) => {
        const { data, filename } = await readUpload(request, FILE_MAX_BYTES);
        return ok(await service.upload(data, filename, request.query.dry_run === '1'));
      },
    );
  };

import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { ok } from '../../http/envelope.ts';
import { readUpload } from '../../http/upload.ts';
import type { TranslationsService } from './translations.service.ts';

const FILE_MAX_BYTES = 2 * 1024 * 1024;

export const translationsRoutes = (service: TranslationsService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.getLangLang, { tags: ['translations'], summary: "The server's overrides of one language's UI strings" }),
      config: { access: 'public' },
      handler: async (request) => {
        const { rows, total } = await service.list(request.query);
        return ok(rows, { count: total });
      },
    });

    app.route({
      ...endpoint(API.getLangSave, { tags: ['translations'], summary: 'Set or remove overrides (null or empty removes)' }),
      config: { access: ['superadmin'] },
      handler: async (request) => ok({ saved: await service.save(request.body.items) }),
    });

    app.route({
      ...endpoint(API.uploadIndex, {
        tags: ['translations'],
        summary: 'Upload a translation file (multipart "file": JSON or CSV key,zh,en); dry_run=1 only previews',
      }),
      config: { access: ['superadmin'] },
      handler: async (request) => {
        const { data, filename } = await readUpload(request, FILE_MAX_BYTES);
        return ok(await service.upload(data, filename, request.query.dry_run === '1'));
      },
    });
  };

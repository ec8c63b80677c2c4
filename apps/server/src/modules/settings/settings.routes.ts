import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import { API, EP, pathOf, ResultCode } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ADMINS } from '../../http/access.ts';
import { endpoint } from '../../http/endpoint.ts';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { readUpload } from '../../http/upload.ts';
import { writeFileDurably } from '../../storage/files.ts';
import { checkImage } from '../rois/images.ts';
import type { SettingsService } from './settings.service.ts';
import type { SystemInfoService } from './system-info.service.ts';

const LOGO_MAX_BYTES = 1024 * 1024;

export const settingsRoutes = (
  settings: SettingsService,
  systemInfo: SystemInfoService,
  dataDir: string,
): FastifyPluginAsyncZod =>
  async function (app) {
    const logoFile = path.join(dataDir, 'branding', 'logo');

    app.route({
      ...endpoint(API.settingIndex, { tags: ['settings'], summary: 'System settings' }),
      config: { access: ADMINS },
      handler: async () => ok(await settings.get()),
    });

    app.route({
      ...endpoint(API.settingGetSetInit, {
        tags: ['settings'],
        summary: 'What the console needs at start: title, logo, language, idle minutes, map tiles, wall maximum',
      }),
      config: { access: 'public' },
      handler: async () => {
        const { site_title, logo, default_language, idle_minutes, map_tile_url, wall_max } = await settings.get();
        return ok({ site_title, logo, default_language, idle_minutes, map_tile_url, wall_max });
      },
    });

    app.route({
      ...endpoint(API.settingSave, { tags: ['settings'], summary: 'Change any subset of the settings' }),
      config: { access: ['superadmin'] },
      handler: async (request) => ok(await settings.save(request.body)),
    });

    app.route({
      ...endpoint(API.settingLogoSave, {
        tags: ['settings'],
        summary: 'Upload the site logo (multipart field "file": PNG, JPEG or WebP, at most 1 MB)',
      }),
      config: { access: ['superadmin'] },
      handler: async (request) => {
        const { data } = await readUpload(request, LOGO_MAX_BYTES);
        // The same checks as every image upload: sniffed content (415), and the declared dimensions read from the header
        // before anything decodes it (413): the logo is public, and a decompression bomb would hang every browser.
        const { mime: type } = await checkImage(data);
        await writeFileDurably(logoFile, data);
        await settings.writeRaw('logo_type', type);
        const version = crypto.createHash('sha256').update(data).digest('hex').slice(0, 12);
        return ok(await settings.save({ logo: `${pathOf(EP.settingLogo).slice(1)}?v=${version}` }));
      },
    });

    app.route({
      ...endpoint(API.settingLogo, { tags: ['settings'], summary: 'The site logo image' }),
      config: { access: 'public' },
      handler: async (_request, reply) => {
        const type = await settings.readRaw('logo_type');
        const data = typeof type === 'string' ? await fs.readFile(logoFile).catch(() => null) : null;
        if (!data) throw new AppError(ResultCode.NOT_FOUND, 'noLogo');
        // The URL carries the content hash, so the image never changes under one URL.
        return reply
          .type(String(type))
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .send(data);
      },
    });

    app.route({
      ...endpoint(API.spiInfoIndex, { tags: ['settings'], summary: 'System information' }),
      config: { access: ['superadmin'] },
      handler: async () => ok(await systemInfo.get()),
    });
  };

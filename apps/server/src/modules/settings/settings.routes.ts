import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import {
  ResultCode,
  SettingsInitSchema,
  SettingsSaveBodySchema,
  SettingsSchema,
  SystemInfoSchema,
  envelopeOf,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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

    app.get(
      '/setting/index',
      {
        config: { access: ['superadmin', 'administrator'] },
        schema: { tags: ['settings'], summary: 'System settings', response: { 200: envelopeOf(SettingsSchema) } },
      },
      async () => ok(await settings.get()),
    );

    app.get(
      '/setting/get-set-init',
      {
        config: { access: 'public' },
        schema: {
          tags: ['settings'],
          summary: 'What the console needs at start: title, logo, language, idle minutes, map tiles, wall maximum',
          response: { 200: envelopeOf(SettingsInitSchema) },
        },
      },
      async () => {
        const { site_title, logo, default_language, idle_minutes, map_tile_url, wall_max } = await settings.get();
        return ok({ site_title, logo, default_language, idle_minutes, map_tile_url, wall_max });
      },
    );

    app.post(
      '/setting/save',
      {
        config: { access: ['superadmin'] },
        schema: {
          tags: ['settings'],
          summary: 'Change any subset of the settings',
          body: SettingsSaveBodySchema,
          response: { 200: envelopeOf(SettingsSchema) },
        },
      },
      async (request) => ok(await settings.save(request.body)),
    );

    app.post(
      '/setting/logo',
      {
        config: { access: ['superadmin'] },
        schema: {
          tags: ['settings'],
          summary: 'Upload the site logo (multipart field "file": PNG, JPEG or WebP, at most 1 MB)',
          response: { 200: envelopeOf(SettingsSchema) },
        },
      },
      async (request) => {
        const { data } = await readUpload(request, LOGO_MAX_BYTES);
        // The same checks as every image upload: sniffed content (415), and the declared dimensions read from the header
        // before anything decodes it (413): the logo is public, and a decompression bomb would hang every browser.
        const { mime: type } = await checkImage(data);
        await writeFileDurably(logoFile, data);
        await settings.writeRaw('logo_type', type);
        const version = crypto.createHash('sha256').update(data).digest('hex').slice(0, 12);
        return ok(await settings.save({ logo: `setting/logo?v=${version}` }));
      },
    );

    app.get(
      '/setting/logo',
      {
        config: { access: 'public' },
        schema: {
          tags: ['settings'],
          summary: 'The site logo image',
          querystring: z.object({ v: z.string().max(64).optional() }),
        },
      },
      async (_request, reply) => {
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
    );

    app.get(
      '/spi-info/index',
      {
        config: { access: ['superadmin'] },
        schema: { tags: ['settings'], summary: 'System information', response: { 200: envelopeOf(SystemInfoSchema) } },
      },
      async () => ok(await systemInfo.get()),
    );
  };

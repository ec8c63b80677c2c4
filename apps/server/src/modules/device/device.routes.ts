import { API, ROI_MAX_BYTES, ResultCode, RoiUploadFieldsSchema } from '@ipp/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireDevice } from '../../http/access.ts';
import { AppError } from '../../http/app-error.ts';
import { validationToAppError } from '../../http/error-handler.ts';
import { ok } from '../../http/envelope.ts';
import { assertBodyArriving, multipartFailure } from '../../http/upload.ts';
import type { DeviceService } from './device.service.ts';
import type { IngestGate } from './ingest-gate.ts';

const DEVICE_SECURITY = [{ deviceKey: [] }];

/** The instrument-facing routes (docs/device-protocol.md). Devices send X-Device-Key, never a user token. */
export const deviceRoutes = (service: DeviceService, gate: IngestGate): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.deviceTelemetry, {
        tags: ['device'],
        summary: 'One telemetry sample (a retry with the same `at` stores nothing)',
        security: DEVICE_SECURITY,
      }),
      config: { access: 'device' },
      handler: async (request) => ok(await service.ingestTelemetry(requireDevice(request), request.body)),
    });

    app.route({
      ...endpoint(API.deviceRois, {
        tags: ['device'],
        summary: 'One ROI image (multipart: file + captured_at, label_index, confidence, size_px); acknowledged once durable',
        security: DEVICE_SECURITY,
        consumes: ['multipart/form-data'],
      }),
      config: { access: 'device', multipart: { fields: RoiUploadFieldsSchema, file: 'The ROI image (PNG, JPEG or WebP)' } },
      bodyLimit: ROI_MAX_BYTES + 64 * 1024,
      // After the device key is checked and before the body is read: a saturated server refuses at once (503/429).
      onRequest: gate.admit,
      handler: (request) => gate.work(request, () => receiveRoi(request)),
    });

    async function receiveRoi(request: FastifyRequest) {
      const device = requireDevice(request);
      const { fields, data } = await readRoiUpload(request);
      const parsed = RoiUploadFieldsSchema.safeParse(fields);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw validationToAppError({
          keyword: issue?.code ?? 'custom',
          instancePath: `/${(issue?.path ?? []).join('/')}`,
          message: issue?.message,
          params: { ...(issue as object) },
        });
      }
      return ok(await service.ingestRoi(device, parsed.data, data));
    }

    app.route({
      ...endpoint(API.deviceConfig, {
        tags: ['device'],
        summary: 'The desired configuration and its version',
        security: DEVICE_SECURITY,
      }),
      config: { access: 'device' },
      handler: async (request) => ok(await service.config(requireDevice(request))),
    });
  };

/** Reads the file part and the text fields in any order; past ROI_MAX_BYTES answers 413. */
async function readRoiUpload(request: FastifyRequest): Promise<{ fields: Record<string, string>; data: Buffer }> {
  if (!request.isMultipart()) throw new AppError(ResultCode.BAD_PARAM, 'fileMissing', {}, 'file');
  const fields: Record<string, string> = {};
  let data: Buffer | null = null;
  assertBodyArriving(request);
  try {
    for await (const part of request.parts({ limits: { fileSize: ROI_MAX_BYTES, files: 1, fields: 10 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || data !== null) {
          await part.toBuffer().catch(() => undefined);
          continue;
        }
        data = await part.toBuffer();
        if (part.file.truncated) throw tooLarge();
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw multipartFailure(error);
  }
  if (data === null || data.length === 0) throw new AppError(ResultCode.BAD_PARAM, 'fileMissing', {}, 'file');
  return { fields, data };
}

const tooLarge = () =>
  new AppError(ResultCode.BAD_PARAM, 'fileTooLarge', { max: `${ROI_MAX_BYTES / 1024 / 1024} MB` }, 'file', 413);

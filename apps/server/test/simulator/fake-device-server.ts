import crypto from 'node:crypto';
import multipart from '@fastify/multipart';
import {
  DEFAULT_IPP_CONFIG,
  DEVICE_KEY_HEADER,
  RoiUploadFieldsSchema,
  TelemetrySampleSchema,
  type DeviceConfig,
  type IppConfig,
  type RoiUploadFields,
  type TelemetrySample,
} from '@ipp/contracts';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

export interface ReceivedRoi {
  devId: string;
  fields: RoiUploadFields;
  sha256: string;
  png: Buffer;
  stored: boolean;
}

/**
 * The device half of the protocol as docs/device-protocol.md states it, validated with the contracts' schemas,
 * recording what arrives. `failNextRois` answers 500 to that many uploads first (nothing stored).
 */
export async function startFakeDeviceServer(keys: Record<string, string>) {
  const devIdOfKey = new Map(Object.entries(keys).map(([devId, key]) => [key, devId]));
  const state = {
    telemetry: [] as { devId: string; sample: TelemetrySample }[],
    rois: [] as ReceivedRoi[],
    /** Requests the protocol refuses, with why: a correct simulator sends none. */
    refused: [] as string[],
    configFetches: 0,
    failNextRois: 0,
    configs: new Map<string, DeviceConfig>(),
  };
  for (const devId of Object.keys(keys))
    state.configs.set(devId, { dev_id: devId, version: 1, config: DEFAULT_IPP_CONFIG, updated_at: Date.now() });

  // Stopping the simulator aborts requests mid-flight; close must not wait for those sockets.
  const app = Fastify({ forceCloseConnections: true });
  await app.register(multipart);
  const fail = (reply: FastifyReply, status: number, code: number, msg: string) =>
    reply.status(status).send({ code, msg, data: msg });
  const device = (request: FastifyRequest) => devIdOfKey.get(String(request.headers[DEVICE_KEY_HEADER] ?? ''));
  const ok = (data: unknown) => ({ code: 1000, data, model: null, count: 0, index: null });

  app.post('/api/device/telemetry', async (request, reply) => {
    const devId = device(request);
    if (!devId) return fail(reply, 401, 1010, 'unknown device key');
    const parsed = TelemetrySampleSchema.safeParse(request.body);
    if (!parsed.success) {
      state.refused.push(`telemetry: ${parsed.error.message}`);
      return fail(reply, 400, 1002, parsed.error.message);
    }
    const duplicate = state.telemetry.some((t) => t.devId === devId && t.sample.at === parsed.data.at);
    if (!duplicate) state.telemetry.push({ devId, sample: parsed.data });
    return ok({ stored: !duplicate, config_version: state.configs.get(devId)!.version });
  });

  app.post('/api/device/rois', async (request, reply) => {
    const devId = device(request);
    if (!devId) return fail(reply, 401, 1010, 'unknown device key');
    const fields: Record<string, string> = {};
    let png: Buffer | null = null;
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'file') png = await part.toBuffer();
        else state.refused.push(`rois: unexpected file part ${part.fieldname}`);
      } else fields[part.fieldname] = String(part.value);
    }
    const parsed = RoiUploadFieldsSchema.safeParse(fields);
    if (!parsed.success || !png) {
      state.refused.push(`rois: ${parsed.error?.message ?? 'no file'}`);
      return fail(reply, 400, 1002, 'bad upload');
    }
    const sha256 = crypto.createHash('sha256').update(png).digest('hex');
    if (state.failNextRois > 0) {
      state.failNextRois--;
      state.rois.push({ devId, fields: parsed.data, sha256, png, stored: false });
      return fail(reply, 500, 1500, 'disk full (simulated)');
    }
    const first = state.rois.findIndex((r) => r.devId === devId && r.sha256 === sha256 && r.stored);
    state.rois.push({ devId, fields: parsed.data, sha256, png, stored: first < 0 });
    return ok({ roi_id: first < 0 ? state.rois.length : first + 1, stored: first < 0, sha256 });
  });

  app.get('/api/device/config', async (request, reply) => {
    const devId = device(request);
    if (!devId) return fail(reply, 401, 1010, 'unknown device key');
    state.configFetches++;
    return ok(state.configs.get(devId));
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    /** A change made in the console: the version goes up by one. */
    setConfig(devId: string, change: Partial<IppConfig>) {
      const current = state.configs.get(devId)!;
      state.configs.set(devId, {
        ...current,
        version: current.version + 1,
        config: { ...current.config, ...change },
        updated_at: Date.now(),
      });
    },
    close: () => app.close(),
  };
}

/** Polls until `check` holds; fails with `what` if it never does. */
export async function until(what: string, check: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

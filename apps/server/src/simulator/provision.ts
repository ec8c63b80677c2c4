import {
  EP,
  urlPathOf,
  DEFAULT_IPP_CONFIG,
  LoginResultSchema,
  OkSchema,
  ResultCode,
  UserInfoSchema,
  type IppConfig,
  type IppSaveBody,
} from '@ipp/contracts';
import { z } from 'zod';
import { ApiError, callApi, describeError, tokenHeaders, withRetry } from './http-transport.ts';
import type { SimLog } from './log.ts';
import { stationOf } from './stations.ts';
import { resumeFrom, type Resume } from './telemetry-model.ts';

/** An instrument the simulator speaks for, with what it needs to continue where an earlier run stopped. */
export interface SimInstrument {
  devId: string;
  key: string;
  /** 1-based position among the instruments of this run. */
  index: number;
  longitude: number | null;
  /** Counters, last clean and time last reported for this instrument, if any. */
  resume?: Resume;
  /** The configuration it ran before this run (kept by the device across restarts), if known. */
  running?: { version: number; config: IppConfig };
}

export const simDevId = (n: number) => `SIM-${String(n).padStart(3, '0')}`;

// Only the fields the simulator reads, so registry additions on the server do not break it.
const ListedIppSchema = z.object({
  id: z.number().int(),
  dev_id: z.string(),
  longitude: z.number().nullable(),
  measured: z
    .object({
      at: z.number().nullable().optional(),
      volume_total_l: z.number().nullable(),
      wiper_clean_count: z.number().nullable(),
      wiper_last_clean_at: z.number().nullable().optional(),
      storage_gb: z.number().nullable(),
    })
    .nullable()
    .optional(),
});
const KeyAnswerSchema = z.object({ device_key: z.string().min(1) });

export interface ProvisionOptions {
  server: string;
  account: string;
  password: string;
  count: number;
  signal?: AbortSignal;
  log: SimLog;
}

/**
 * Signs in as a team administrator and makes sure SIM-001…SIM-n exist in that team: a new instrument answers
 * its key at registration, an existing one gets a fresh key (the old one stops working).
 */
export async function provisionInstruments(options: ProvisionOptions): Promise<SimInstrument[]> {
  const { server, signal, log } = options;
  const retry = <T>(call: () => Promise<T>) =>
    withRetry(call, {
      signal,
      onRetry: (error, attempt) =>
        log.throttled('provision-retry', `console at ${server} not answering (${describeError(error)}); retry ${attempt}`),
    });

  const login = await retry(() =>
    callApi(
      `${server}${urlPathOf(EP.wyrbacLoginLogin)}`,
      { json: { username: options.account, password: options.password }, signal },
      LoginResultSchema,
    ),
  ).catch((error: unknown) => {
    throw new Error(`signing in as ${options.account} failed: ${describeError(error)}`);
  });
  if (login.demo) throw new Error(`${options.account} is the read-only demo account: use a team administrator (--account)`);
  const auth = { headers: tokenHeaders(login.token), signal };
  const me = await retry(() => callApi(`${server}${urlPathOf(EP.wyrbacLoginUserInfo)}`, auth, UserInfoSchema));
  if (me.group_id === null)
    throw new Error(`${options.account} belongs to no team: use the administrator of the team the instruments should join`);
  const groupId = me.group_id;

  const instruments: SimInstrument[] = [];
  for (let n = 1; n <= options.count; n++) {
    const devId = simDevId(n);
    const query = new URLSearchParams({ keyword: devId, limit: '100' });
    const listed = await retry(() => callApi(`${server}${urlPathOf(EP.ippIndex)}?${query}`, auth, z.array(ListedIppSchema)));
    const existing = listed.find((ipp) => ipp.dev_id === devId);
    if (existing) {
      const { device_key } = await retry(() =>
        callApi(`${server}${urlPathOf(EP.ippRotateKey)}`, { ...auth, json: { id: existing.id } }, KeyAnswerSchema),
      );
      instruments.push({
        devId,
        key: device_key,
        index: n,
        longitude: existing.longitude,
        resume: resumeFrom(existing.measured),
      });
      log.info(`${devId} exists: issued a fresh device key`);
      continue;
    }
    const station = stationOf(n);
    const body: IppSaveBody = {
      dev_id: devId,
      site_name: `${station.site} (simulated)`,
      country: station.country,
      longitude: station.longitude,
      latitude: station.latitude,
      group_id: groupId,
      serial_number: `IPP-SIM-${String(n).padStart(4, '0')}`,
      config: DEFAULT_IPP_CONFIG,
    };
    const created = await retry(() =>
      callApi(`${server}${urlPathOf(EP.ippSave)}`, { ...auth, json: body }, KeyAnswerSchema),
    ).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === ResultCode.BAD_PARAM)
        throw new Error(
          `registering ${devId} failed: ${error.message} (is it registered in another team? remove it or pass --device)`,
        );
      throw error;
    });
    instruments.push({ devId, key: created.device_key, index: n, longitude: station.longitude });
    log.info(`${devId} registered at ${station.site}, ${station.country}`);
  }
  // The session is not needed any more; devices use their keys.
  await callApi(`${server}${urlPathOf(EP.wyrbacLoginLogout)}`, auth, OkSchema).catch(() => undefined);
  return instruments;
}

import { parseArgs } from 'node:util';
import type { IppConfig } from '@ipp/contracts';
import type { Resume } from './telemetry-model.ts';

/** An existing instrument to speak for: its site ID and device key. */
export interface DeviceCredentials {
  devId: string;
  key: string;
  /** Where the station is (its daily cycles follow local solar time); unknown from the command line. */
  longitude?: number | null;
  /** Counters and last clean to continue from (the station's last reading); unknown from the command line. */
  resume?: Resume;
  /** The configuration the device ran before it restarted (a device keeps it); unknown from the command line. */
  running?: { version: number; config: IppConfig };
}

export interface SimOptions {
  /** Console base URL (the API is under /api). */
  server: string;
  /** Instruments to provision (SIM-001…) when no `devices` credentials are given. */
  count: number;
  /** ROI images per second per device at the default frame rate (3 fps); scales with the applied frame rate. */
  rate: number;
  telemetryIntervalS: number;
  mqtt?: string;
  durationS?: number;
  /** Existing instruments (`--device DEV_ID:KEY`): no provisioning. */
  devices: DeviceCredentials[];
  account: string;
  password: string;
}

export const USAGE = `Usage: npm run simulate -- [options]

Simulates Imaging Plankton Probes: telemetry, ROI images and configuration changes (docs/device-protocol.md).

  --server URL               console base URL (default http://127.0.0.1:8080)
  --devices N                instruments SIM-001…SIM-N to provision and run (default 3)
  --rate R                   ROI images per second per device at 3.0 fps (default 0.2); scales with frame_rate
  --telemetry-interval S     seconds between telemetry samples (default 10)
  --mqtt URL                 send telemetry and take configuration over MQTT (mqtt://host:1883)
  --duration S               stop after S seconds (default: run until Ctrl-C)
  --device DEV_ID:KEY        speak for this existing instrument instead of provisioning (repeatable)
  --account NAME             team administrator who provisions (default $SIM_ACCOUNT or demo_admin)
  --password PASSWORD        its password (default $SIM_PASSWORD or demo123)
  -h, --help                 show this help`;

/** A command line the simulator cannot run with; the message says which flag and why. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type ParsedArgs = { help: true } | { help: false; options: SimOptions };

const DEV_ID = /^[A-Za-z0-9_-]{1,32}$/;

function number(flag: string, text: string | undefined, fallback: number, check: (n: number) => boolean, rule: string): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !check(n)) throw new UsageError(`--${flag} must be ${rule} (got "${text}")`);
  return n;
}

function url(flag: string, text: string, protocols: string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new UsageError(`--${flag} must be a URL such as ${protocols[0]}//host:port (got "${text}")`);
  }
  if (!protocols.includes(parsed.protocol))
    throw new UsageError(`--${flag} must use ${protocols.map((p) => p.replace(':', '')).join(' or ')} (got "${text}")`);
  return text.replace(/\/+$/, '');
}

function credentials(text: string): DeviceCredentials {
  const colon = text.indexOf(':');
  const devId = colon < 0 ? text : text.slice(0, colon);
  const key = colon < 0 ? '' : text.slice(colon + 1);
  if (!DEV_ID.test(devId))
    throw new UsageError(`--device needs DEV_ID:KEY with a site ID of letters, digits, - and _ (got "${text}")`);
  if (key === '') throw new UsageError(`--device ${devId} needs its device key after a colon (DEV_ID:KEY)`);
  return { devId, key };
}

/** Reads the command line (without `node` and the script); throws UsageError on anything it cannot use. */
export function parseSimArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ParsedArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        server: { type: 'string' },
        devices: { type: 'string' },
        rate: { type: 'string' },
        'telemetry-interval': { type: 'string' },
        mqtt: { type: 'string' },
        duration: { type: 'string' },
        device: { type: 'string', multiple: true },
        account: { type: 'string' },
        password: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { help: true };

  const devices = (values.device ?? []).map(credentials);
  const ids = new Set(devices.map((d) => d.devId));
  if (ids.size !== devices.length) throw new UsageError('--device names the same site ID twice');
  if (devices.length > 0 && values.devices !== undefined)
    throw new UsageError('--devices provisions SIM-001…; --device runs given instruments: use one or the other');

  return {
    help: false,
    options: {
      server: url('server', values.server ?? 'http://127.0.0.1:8080', ['http:', 'https:']),
      count: number(
        'devices',
        values.devices,
        3,
        (n) => Number.isInteger(n) && n >= 1 && n <= 999,
        'a whole number from 1 to 999',
      ),
      rate: number('rate', values.rate, 0.2, (n) => n >= 0 && n <= 100, 'a number of images per second from 0 to 100'),
      telemetryIntervalS: number(
        'telemetry-interval',
        values['telemetry-interval'],
        10,
        (n) => n >= 0.1 && n <= 3600,
        'a number of seconds from 0.1 to 3600',
      ),
      mqtt: values.mqtt === undefined ? undefined : url('mqtt', values.mqtt, ['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:']),
      durationS:
        values.duration === undefined
          ? undefined
          : number('duration', values.duration, 0, (n) => n > 0, 'a positive number of seconds'),
      devices,
      account: values.account ?? (env.SIM_ACCOUNT || 'demo_admin'),
      password: values.password ?? (env.SIM_PASSWORD || 'demo123'),
    },
  };
}

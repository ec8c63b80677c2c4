import { describe, expect, it } from 'vitest';
import { parseSimArgs, UsageError, type SimOptions } from '../../src/simulator/args.ts';

const options = (argv: string[], env: NodeJS.ProcessEnv = {}): SimOptions => {
  const parsed = parseSimArgs(argv, env);
  if (parsed.help) throw new Error('unexpected --help');
  return parsed.options;
};

describe('simulator command line', () => {
  it('has defaults for everything', () => {
    expect(options([])).toEqual({
      server: 'http://127.0.0.1:8080',
      count: 3,
      rate: 0.2,
      telemetryIntervalS: 10,
      mqtt: undefined,
      durationS: undefined,
      devices: [],
      account: 'demo_admin',
      password: 'demo123',
    });
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    expect(
      options([
        '--server=https://ipp.example.org/',
        '--devices',
        '12',
        '--rate',
        '1.5',
        '--telemetry-interval',
        '5',
        '--mqtt',
        'mqtt://127.0.0.1:1883',
        '--duration=30',
        '--account',
        'ops',
        '--password',
        'secret1',
      ]),
    ).toMatchObject({
      server: 'https://ipp.example.org',
      count: 12,
      rate: 1.5,
      telemetryIntervalS: 5,
      mqtt: 'mqtt://127.0.0.1:1883',
      durationS: 30,
      account: 'ops',
      password: 'secret1',
    });
  });

  it('takes repeated --device DEV_ID:KEY, keeping colons inside the key', () => {
    expect(options(['--device', '21005:ippk_abc', '--device', 'SIM-009:k:with:colons']).devices).toEqual([
      { devId: '21005', key: 'ippk_abc' },
      { devId: 'SIM-009', key: 'k:with:colons' },
    ]);
  });

  it('takes the account from SIM_ACCOUNT / SIM_PASSWORD unless given as flags', () => {
    expect(options([], { SIM_ACCOUNT: 'team_admin', SIM_PASSWORD: 'pw123456' })).toMatchObject({
      account: 'team_admin',
      password: 'pw123456',
    });
    expect(options(['--account', 'x_admin'], { SIM_ACCOUNT: 'team_admin' }).account).toBe('x_admin');
  });

  it('answers help for -h and --help', () => {
    expect(parseSimArgs(['-h'])).toEqual({ help: true });
    expect(parseSimArgs(['--help', '--devices', 'oops'])).toEqual({ help: true });
  });

  it.each([
    [['--devices', '0'], /--devices must be a whole number from 1 to 999/],
    [['--devices', '2.5'], /--devices/],
    [['--devices', 'three'], /--devices .*"three"/],
    [['--rate', '-1'], /--rate/],
    [['--rate=-1'], /--rate must be a number of images per second/],
    [['--rate', ''], /--rate/],
    [['--telemetry-interval', '0'], /--telemetry-interval/],
    [['--duration', '0'], /--duration must be a positive number/],
    [['--server', 'localhost:8080'], /--server must use http or https/],
    [['--server', 'not a url'], /--server must be a URL/],
    [['--mqtt', 'http://broker'], /--mqtt must use mqtt/],
    [['--device', '21005'], /--device 21005 needs its device key/],
    [['--device', 'bad id:key'], /site ID of letters, digits/],
    [['--device', 'A:k1', '--device', 'A:k2'], /same site ID twice/],
    [['--device', 'A:k1', '--devices', '2'], /use one or the other/],
    [['--devcies', '2'], /Unknown option '--devcies'/],
    [['--devices'], /--devices/],
    [['extra'], /positional argument/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseSimArgs(argv, {})).toThrow(UsageError);
    expect(() => parseSimArgs(argv, {})).toThrow(message);
  });
});

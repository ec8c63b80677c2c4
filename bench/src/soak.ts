/**
 * The fleet soak from the command line (bench/src/soak-run.ts says what it runs and measures).
 *
 *   npm run bench:soak -w bench                 # the full soak: 200 instruments, 100 ROIs/s, 20 minutes
 *   npm run bench:soak -w bench -- --short      # the two-minute version CI runs (e2e/fleet-soak.e2e.ts)
 *   --devices N  --rate R (ROIs/s, whole fleet)  --seconds S  --users U  --drain S (longest wait for the backlog)
 */
import { parseArgs } from 'node:util';
import { describeSoak, FULL_SOAK, runSoak, SHORT_SOAK } from './soak-run.ts';

const { values: flags } = parseArgs({
  options: {
    short: { type: 'boolean', default: false },
    devices: { type: 'string' },
    rate: { type: 'string' },
    seconds: { type: 'string' },
    users: { type: 'string' },
    drain: { type: 'string' },
  },
});
const base = flags.short ? SHORT_SOAK : FULL_SOAK;
const options = {
  ...base,
  ...(flags.devices ? { devices: Number(flags.devices) } : {}),
  ...(flags.rate ? { totalRate: Number(flags.rate) } : {}),
  ...(flags.seconds ? { seconds: Number(flags.seconds) } : {}),
  ...(flags.users ? { users: Number(flags.users) } : {}),
  ...(flags.drain ? { drainTimeoutS: Number(flags.drain) } : {}),
};
console.log(`Fleet soak: ${options.devices} instruments, ${options.totalRate} ROIs/s, ${options.seconds} s`);
const report = await runSoak({ ...options, log: (line) => console.log(line) });
for (const line of describeSoak(report)) console.log(line);
process.exit(report.lost === 0 && report.drained ? 0 : 1);

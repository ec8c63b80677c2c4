/**
 * Issue 39's scaling measurement: what a second server process adds on PostgreSQL, measured on a 2-CPU machine.
 * Two server processes run on one PostgreSQL database, each pinned to its own CPU (taskset); phases alternate between
 * all instruments posting to the first process alone (one process on one core) and the instruments split between both
 * (two processes, one core each). PostgreSQL and the instruments (this process) are not pinned: they share the same
 * two CPUs, which the report shows beside the rates (cores used by each party, and CPU milliseconds per ROI), so the
 * figure for a machine where they would have their own cores can be read from it.
 *
 *   npm run bench:scaling -w bench [-- --instruments 20 --seconds 20 --phases 3]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { formatCpu, startCpu, type CpuUse } from './cpu.ts';
import { freshTarget, generateFleet } from './generate.ts';
import { ingestImages, ingestPhase, type IngestPhase } from './ingest-load.ts';
import { startServerProcess } from './server-process.ts';

const { values: flags } = parseArgs({
  options: {
    instruments: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '20' },
    phases: { type: 'string', default: '3' },
  },
});
const INSTRUMENTS = Number(flags.instruments);
const SECONDS = Number(flags.seconds);
const PHASES = Number(flags.phases);
if (os.availableParallelism() < 2) throw new Error('the scaling measurement needs two CPUs');

const { nextImage, source } = await ingestImages();
const target = await freshTarget('postgres', 'scaling');
await generateFleet(target.db, { rois: 0, stations: INSTRUMENTS, classes: 8, days: 1, now: Date.now(), telemetry: false });
await target.db.close();
const env = { SIMILARITY_PRELOAD: 'off', FEATURE_WORKERS: '1' };
const servers = [
  await startServerProcess({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, env, cpus: '1' }),
  await startServerProcess({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, env, cpus: '0' }),
];
const urls = servers.map((s) => s.url);
console.log(
  `Scaling: ${INSTRUMENTS} instruments, ${PHASES} × (one process, two processes) of ${SECONDS} s, ${target.describe}, ${source}`,
);

interface Row {
  processes: number;
  http: IngestPhase;
  cpu: CpuUse;
}
const rows: Row[] = [];
const phase = async (processes: number) => {
  const stop = startCpu(servers.map((s) => s.pid));
  const http = await ingestPhase(urls.slice(0, processes), INSTRUMENTS, SECONDS, nextImage);
  const row = { processes, http, cpu: stop() };
  rows.push(row);
  console.log(
    `  ${processes} process(es): ${http.perSecond.toFixed(1)} ROIs/s (p50 ${http.p50.toFixed(0)} ms, p99 ${http.p99.toFixed(0)} ms, ` +
      `${http.errors} errors); ${formatCpu(row.cpu)}`,
  );
};
await ingestPhase(urls, INSTRUMENTS, 5, nextImage); // warm-up: both processes' code paths and caches
for (let p = 0; p < PHASES; p++) {
  // Alternate which goes first, so a drift of the machine hits both.
  for (const n of p % 2 ? [2, 1] : [1, 2]) await phase(n);
}
for (const s of servers) await s.stop();
await target.drop();

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const of = (n: number) => rows.filter((r) => r.processes === n);
const rate = (n: number) => mean(of(n).map((r) => r.http.perSecond));
/** CPU milliseconds per acknowledged ROI: the servers together, PostgreSQL, the instruments. */
const perRoi = (n: number) => {
  const rs = of(n);
  const ms = (f: (r: Row) => number) => mean(rs.map((r) => (1000 * f(r)) / r.http.perSecond));
  return {
    servers: ms((r) => r.cpu.servers.reduce((a, b) => a + b, 0)),
    postgres: ms((r) => r.cpu.postgres),
    generator: ms((r) => r.cpu.generator),
  };
};
const lines = [
  `${new Date().toISOString().slice(0, 10)}, ${os.availableParallelism()} CPUs, Node ${process.version}; PostgreSQL; ` +
    `${INSTRUMENTS} instruments, ${source}; ${PHASES} × (one, two) phases of ${SECONDS} s; each server pinned to its own CPU, ` +
    'FEATURE_WORKERS=1; PostgreSQL and the instruments unpinned. Command: `npm run bench:scaling -w bench`.',
  '',
  '| processes | ROIs/s (each phase) | mean | CPU ms per ROI: servers | PostgreSQL | instruments | cores used: servers, PostgreSQL, instruments, machine |',
  '|---|---|---|---|---|---|---|',
  ...[1, 2].map((n) => {
    const c = perRoi(n);
    const cores = (f: (u: CpuUse) => number) => mean(of(n).map((r) => f(r.cpu))).toFixed(2);
    return (
      `| ${n} | ${of(n)
        .map((r) => r.http.perSecond.toFixed(1))
        .join(
          ', ',
        )} | ${rate(n).toFixed(1)} | ${c.servers.toFixed(1)} | ${c.postgres.toFixed(1)} | ${c.generator.toFixed(1)} | ` +
      `${cores((u) => u.servers.reduce((a, b) => a + b, 0))}, ${cores((u) => u.postgres)}, ${cores((u) => u.generator)}, ${cores((u) => u.machine)} |`
    );
  }),
  '',
  `Two processes acknowledged ${(rate(2) / rate(1)).toFixed(2)}× what one did.`,
];
console.log(lines.join('\n'));

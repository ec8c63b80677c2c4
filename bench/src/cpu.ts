/**
 * CPU accounting from /proc for the load benchmarks: how many cores each party used over a phase (server processes,
 * PostgreSQL's processes, the load generator itself, everything), so a throughput figure comes with where the
 * machine's time went.
 */
import fs from 'node:fs';
import os from 'node:os';

const TICK = 100; // USER_HZ: clock ticks per second in /proc/<pid>/stat on Linux

function procTicks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0; // the process ended during the phase
  }
}

function postgresPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres');
      } catch {
        return false;
      }
    });
}

/** Busy and total jiffies of the whole machine (all CPUs) from the first line of /proc/stat. */
function machineTicks() {
  const values = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = values[3]! + (values[4] ?? 0);
  const total = values.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

export interface CpuUse {
  /** Cores used over the phase by each server process. */
  servers: number[];
  postgres: number;
  /** The benchmark's own process (the load generator). */
  generator: number;
  /** All CPUs of the machine, busy: cores used by everything, and the machine's core count. */
  machine: number;
  cores: number;
}

/** Starts measuring; the returned function ends the phase and gives each party's cores used. */
export function startCpu(serverPids: number[]): () => CpuUse {
  // PostgreSQL's processes come and go (a backend per connection): each counts from its ticks at the start, or from 0
  // when it started during the phase; one that ended during the phase is lost rather than counted negative.
  const pg0 = new Map(postgresPids().map((pid) => [pid, procTicks(pid)]));
  const pgUsed = () => postgresPids().reduce((sum, pid) => sum + Math.max(0, procTicks(pid) - (pg0.get(pid) ?? 0)), 0);
  const t0 = performance.now();
  const servers0 = serverPids.map(procTicks);
  const self0 = process.cpuUsage();
  const machine0 = machineTicks();
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    const self = process.cpuUsage(self0);
    const machine1 = machineTicks();
    const cores = os.cpus().length;
    // /proc/stat counts every CPU's jiffies: busy / total × cores is the number of cores in use.
    const machineShare = (machine1.busy - machine0.busy) / Math.max(1, machine1.total - machine0.total);
    return {
      servers: serverPids.map((pid, i) => (procTicks(pid) - servers0[i]!) / TICK / seconds),
      postgres: pgUsed() / TICK / seconds,
      generator: (self.user + self.system) / 1e6 / seconds,
      machine: machineShare * cores,
      cores,
    };
  };
}

export const formatCpu = (u: CpuUse) =>
  `servers ${u.servers.map((c) => c.toFixed(2)).join(' + ')}, PostgreSQL ${u.postgres.toFixed(2)}, ` +
  `load generator ${u.generator.toFixed(2)}; machine ${u.machine.toFixed(2)} of ${u.cores} cores`;

/**
 * The real server as a child process (`apps/server/src/main.ts`, what `npm start` runs), for the benchmarks that
 * measure it over HTTP on loopback: load, scale-out, ingest.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  /** Resident set size now, in MB (from /proc). */
  rssMb(): number;
  /**
   * Resident memory now by kind, in MB (from /proc): `anon` is the process's own (heaps, native caches), `file` is
   * pages of mapped files (SQLite's memory-mapped database, shared libraries), which the kernel can reclaim.
   */
  memoryMb(): { rss: number; anon: number; file: number };
  /** Open file descriptors now. */
  fds(): number;
  /** The JavaScript heap in use now, in MB, from a diagnostic report the process writes on SIGUSR2 (null if none came). */
  heapUsedMb(): Promise<number | null>;
  log(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export async function startServerProcess(options: {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** Pins the process to these CPUs (`taskset -c`, e.g. "1"), for scaling measurements on a small machine. */
  cpus?: string;
  /** More flags for node, e.g. `--cpu-prof` (not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
}): Promise<ServerProcess> {
  const port = await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    ADMIN_PASSWORD: 'bench-admin-pass',
    LOG_LEVEL: 'warn',
    STATS_UTC_OFFSET: '8',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  if (!options.databaseUrl) delete env.DATABASE_URL;
  // Diagnostic reports on SIGUSR2 (Node's own): they tell the JavaScript heap from native memory in RSS.
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-bench-reports-'));
  const nodeArgs = [
    '--report-on-signal',
    '--report-signal=SIGUSR2',
    `--report-directory=${reports}`,
    '--report-compact',
    ...(options.nodeArgs ?? []),
  ];
  const command = [process.execPath, ...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'];
  // taskset executes the server in its own place, so the child's pid is the server's.
  const [file, ...args] = options.cpus ? ['taskset', '-c', options.cpus, ...command] : command;
  const child: ChildProcess = spawn(file!, args, {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (output.includes('IPP Console on')) break;
    if (Date.now() > deadline) throw new Error(`server did not start in 120 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const pid = child.pid!;
  const memoryMb = () => {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const mb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
    return { rss: mb('VmRSS'), anon: mb('RssAnon'), file: mb('RssFile') + mb('RssShmem') };
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid,
    rssMb: () => memoryMb().rss,
    memoryMb,
    fds: () => fs.readdirSync(`/proc/${pid}/fd`).length,
    async heapUsedMb() {
      for (const old of fs.readdirSync(reports)) fs.rmSync(path.join(reports, old), { force: true });
      process.kill(pid, 'SIGUSR2');
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        const file = fs.readdirSync(reports).find((f) => f.endsWith('.json'));
        if (!file) continue;
        try {
          const report = JSON.parse(fs.readFileSync(path.join(reports, file), 'utf8')) as {
            javascriptHeap?: { usedMemory?: number };
          };
          fs.rmSync(path.join(reports, file), { force: true });
          return (report.javascriptHeap?.usedMemory ?? 0) / 1024 / 1024;
        } catch {
          // Still being written.
        }
      }
      return null;
    },
    log: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Keep-alive HTTP for the load generators (lighter than fetch at thousands of calls per second). */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export interface Answer {
  status: number;
  body: Buffer;
}

export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

/** The envelope of an answer: its code and data; throws when the body is not one. */
export function envelope<T>(answer: Answer): { code: number; data: T; msg?: string } {
  return JSON.parse(answer.body.toString()) as { code: number; data: T; msg?: string };
}

export async function signIn(url: string, username: string, password: string): Promise<string> {
  const answer = await request(`${url}/api/wyrbac/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const e = envelope<{ token: string }>(answer);
  if (e.code !== 1000) throw new Error(`sign-in failed: ${answer.body.toString()}`);
  return e.data.token;
}

export function percentile(values: number[], p: number) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * Debian's nginx run with the repository's configuration (deploy/nginx/ipp-console.conf), changing only its marked
 * listen and upstream addresses to the ports of this run: the fleet soak's reverse proxy (soak-run.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, repoRoot } from './server-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** nginx from Debian with the repository's configuration, on the ports this run uses. */
export async function startNginx(upstreams: number[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-soak-nginx-'));
  const source = fs.readFileSync(path.join(repoRoot, 'deploy/nginx/ipp-console.conf'), 'utf8');
  const port = await freePort();
  const servers = /( *)server 127\.0\.0\.1:8081;\n\s*server 127\.0\.0\.1:8082;/;
  const listen = /listen 127\.0\.0\.1:8080;/;
  if (!servers.test(source) || !listen.test(source))
    throw new Error('deploy/nginx/ipp-console.conf no longer has the upstream and listen lines the soak replaces');
  const conf = source
    .replace(servers, (_, indent: string) => upstreams.map((p) => `${indent}server 127.0.0.1:${p};`).join('\n'))
    .replace(listen, `listen 127.0.0.1:${port};`);
  fs.writeFileSync(path.join(dir, 'ipp-console.conf'), conf);
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      // Workers run as the invoking user when it is root (CI), so they can use this temporary folder.
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 4096; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
      `  include ${dir}/ipp-console.conf;`,
      '}',
    ].join('\n'),
  );
  const binary = fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  const check = spawnSync(binary, ['-t', '-p', dir, '-c', `${dir}/nginx.conf`], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx refused the configuration:\n${check.stderr}`);
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 10_000;
  const fail = (message: string) => {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    return new Error(message);
  };
  for (;;) {
    if (child.exitCode !== null) throw fail(`nginx exited with ${child.exitCode}: ${stderr}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw fail(`nginx did not listen on ${port}: ${stderr}`);
    await sleep(50);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGQUIT');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether Debian's nginx is installed (the soak needs it). */
export const hasNginx = () => spawnSync(fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx', ['-v']).status === 0;

// Finds Debian's Chromium for the end-to-end suite, installing it with apt when we are root and it is missing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (fs.existsSync(CHROMIUM_PATH)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log(`Chromium not found at ${CHROMIUM_PATH}: installing Debian's chromium package with apt-get`);
    spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'], {
      stdio: 'inherit',
    });
  }
  if (fs.existsSync(CHROMIUM_PATH)) return true;
  console.warn(`\n*** Chromium is not available at ${CHROMIUM_PATH}: the end-to-end suite will fail in CI and skip elsewhere.\n`);
  return false;
}

/** Debian's nginx for the fleet soak (e2e/fleet-soak.e2e.ts), installed with apt when we are root and it is missing. */
export function ensureNginx() {
  const binary = '/usr/sbin/nginx';
  if (fs.existsSync(binary)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log(`nginx not found at ${binary}: installing Debian's nginx package with apt-get`);
    spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx'], {
      stdio: 'inherit',
    });
  }
  if (fs.existsSync(binary)) return true;
  console.warn(`\n*** nginx is not available at ${binary}: the fleet soak will fail in CI and skip elsewhere.\n`);
  return false;
}

// Finds the Debian programs the suites need, installing the package with apt when we are root and it is missing:
// Chromium for the end-to-end suite, nginx for the fleet soak (e2e/fleet-soak.e2e.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `binary` exists, or is installed from Debian's `pkg`; else a loud warning naming what will fail or skip. */
function ensureDebianProgram(binary, pkg, consequence) {
  if (fs.existsSync(binary)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log(`${pkg} not found at ${binary}: installing Debian's ${pkg} package with apt-get`);
    spawnSync('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`], {
      stdio: 'inherit',
    });
  }
  if (fs.existsSync(binary)) return true;
  console.warn(`\n*** ${pkg} is not available at ${binary}: ${consequence}.\n`);
  return false;
}

export const ensureChromium = () =>
  ensureDebianProgram(CHROMIUM_PATH, 'chromium', 'the end-to-end suite will fail in CI and skip elsewhere');

export const ensureNginx = () =>
  ensureDebianProgram('/usr/sbin/nginx', 'nginx', 'the fleet soak will fail in CI and skip elsewhere');

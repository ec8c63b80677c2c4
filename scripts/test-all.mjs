#!/usr/bin/env node
// The README's test command: builds the console (unless apps/web/dist is already built from these sources), then runs
// every suite (server on SQLite and PostgreSQL, web units, end-to-end in Chromium) one after the other and prints the
// counts of each and in total.
//   node scripts/test-all.mjs [server|web|e2e ...]   only those suites
//   node scripts/test-all.mjs --fast                 `npm run test:fast`: server on SQLite only and web units, the
//                                                    inner loop (CI and `npm test` run everything)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureChromium, ensureNginx } from './chromium.mjs';
import { webBuildIsCurrent } from './web-inputs.mjs';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });

const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const args = process.argv.slice(2);
const fast = args.includes('--fast');
const named = args.filter((a) => a !== '--fast');
const only = named.length > 0 ? named : fast ? ['server', 'web'] : [];
// helpers/dialects.ts reads it: the PostgreSQL half is skipped, said loudly, and only when asked for.
if (fast) process.env.TEST_DIALECTS = 'sqlite';
else delete process.env.TEST_DIALECTS; // one left in the shell must not shrink `npm test`
const suites = [
  { name: 'server', config: 'apps/server/vitest.config.ts' },
  { name: 'web', config: 'apps/web/vite.config.ts' },
  { name: 'e2e', config: 'e2e/vitest.config.ts' },
].filter((s) => only.length === 0 || only.includes(s.name));

if (suites.some((s) => s.name === 'e2e')) {
  if (webBuildIsCurrent()) console.log('\n=== build: apps/web/dist is built from these sources already');
  else {
    console.log('\n=== build: production web bundle for the end-to-end suite');
    if (run('npm', ['run', 'build']) !== 0) process.exit(1);
  }
  ensureChromium();
  ensureNginx();
}

let failedRuns = 0;
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
for (const suite of suites) {
  console.log(`\n=== ${suite.name} suite`);
  const out = path.join(results, `${suite.name}.json`);
  fs.rmSync(out, { force: true });
  const status = run('npx', [
    'vitest',
    'run',
    '--config',
    suite.config,
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${out}`,
  ]);
  if (status !== 0) failedRuns++;
  if (!fs.existsSync(out)) {
    lines.push(`${suite.name}: no results (vitest exited ${status})`);
    failedRuns++;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  const counts = {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  lines.push(`${suite.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
}

console.log('\n=== summary');
for (const line of lines) console.log(line);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRuns > 0 || totals.failed > 0 ? 1 : 0);

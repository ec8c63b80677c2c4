import { buildApp } from './app.ts';
import { systemClock } from './clock.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { shutdownWithin } from './http/shutdown.ts';
import { migrateToLatest } from './db/migrate.ts';
import { ADMIN_ACCOUNT, ensureSuperadmin } from './seed/bootstrap.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './seed/demo.ts';
import { seedDemoHistory } from './seed/demo-history.ts';
import { seedDemoModel } from './seed/demo-model.ts';
import { startDemoLive } from './seed/demo-live.ts';
import type { SimulatorHandle } from './simulator/simulator.ts';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}

const db = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const applied = await migrateToLatest(db);
const admin = await ensureSuperadmin(db, systemClock, config.SCRYPT_LOG_N, config.ADMIN_PASSWORD);
const seedDemoData = process.argv.includes('--seed-demo');
const demo = seedDemoData ? await seedDemo(db, systemClock, config.SCRYPT_LOG_N) : { created: false };

const app = await buildApp({ config, db, serveWeb: true });
let demoLive: SimulatorHandle | null = null;
const shutdown = async (signal: string) => {
  app.log.info(`${signal}: shutting down`);
  // Bounded even with a stuck request or database (SHUTDOWN_TIMEOUT_MS, then exit code 1); connections still busy
  // after the grace period are cut (an unacknowledged upload is simply resent by the device).
  await shutdownWithin({
    app,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    closeFirst: async () => demoLive?.stop(),
    closeRest: () => db.close(),
    log: (message) => console.error(message),
  });
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.PORT, host: config.HOST });
const shownHost = config.HOST === '0.0.0.0' ? 'localhost' : config.HOST;
const lines = [
  '',
  `IPP Console on http://${shownHost}:${config.PORT}  (API docs: /api/docs)`,
  `Database: ${db.describe}${applied.length ? ` — migrations applied: ${applied.join(', ')}` : ''}`,
];
if (admin.generatedPassword) {
  lines.push(
    `Superadmin created: account "${ADMIN_ACCOUNT}", password "${admin.generatedPassword}" (shown once; set ADMIN_PASSWORD to choose it)`,
  );
} else if (admin.created) {
  lines.push(`Superadmin created: account "${ADMIN_ACCOUNT}" with the password from ADMIN_PASSWORD`);
}
if (seedDemoData) {
  lines.push(demo.created ? 'Demo data seeded. Demo accounts:' : 'Demo accounts:');
  for (const a of DEMO_ACCOUNTS)
    lines.push(`  ${a.account.padEnd(12)} password ${DEMO_PASSWORD}   ${a.role}${a.demo ? ' (read-only demo)' : ''}`);
}
console.log(lines.join('\n'));

// The recovery pass over the image files, after every start (a crash may have left files without their row) and then
// hourly, in the background: it deletes only files last touched longer ago than ORPHAN_GRACE_MINUTES.
app.orphans.start(
  (result, ms) =>
    console.log(
      `Orphan sweep: ${result.files} image files checked, ${result.deleted} orphan(s) deleted (${(result.bytes / 1e6).toFixed(1)} MB) in ${ms} ms`,
    ),
  (error: unknown) => app.log.error({ err: error }, 'orphan sweep failed'),
);

if (config.SIMILARITY_PRELOAD === 'on') {
  const started = Date.now();
  app.similarity
    .preload()
    .then((n) => app.log.info(`similarity index: ${n} ROIs loaded in ${Date.now() - started} ms`))
    .catch((error: unknown) => app.log.error({ err: error }, 'similarity index preload failed'));
}

// 30 days of demo history, written through the real ingest path after the console is already up: the charts
// fill newest first. IPP_DEMO_HISTORY=off skips it (the browser tests start many servers).
if (seedDemoData && process.env.IPP_DEMO_HISTORY !== 'off') {
  let shown = 0;
  seedDemoHistory(db, systemClock, app.devices, app.rois, {
    onProgress(done, total) {
      const percent = Math.floor((done / total) * 100);
      if (percent >= shown + 10 || done === total) {
        shown = percent;
        console.log(`Demo history: ${percent}% (${done}/${total} samples and images)`);
      }
    },
  })
    .then(async (result) => {
      if (result.created)
        console.log(`Demo history ready: ${result.telemetry} telemetry samples, ${result.rois} images over 30 days.`);
      if (await seedDemoModel(db, systemClock, app.rois, app.jobs))
        console.log('Demo recogniser: human-identified examples stored, training job queued (see Identify → AI models).');
      // Then the demo stations keep reporting live (IPP_DEMO_LIVE=off leaves them silent).
      if (process.env.IPP_DEMO_LIVE === 'off') return;
      demoLive = await startDemoLive(db, `http://127.0.0.1:${config.PORT}`, config.MQTT_URL);
      if (demoLive)
        console.log(`Demo stations ${demoLive.devices.length} reporting live (simulated; IPP_DEMO_LIVE=off stops it).`);
    })
    .catch((error: unknown) => app.log.error({ err: error }, 'demo history or live demo stopped'));
}

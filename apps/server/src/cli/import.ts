import path from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../clock.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { ensureDayRollups } from '../modules/stats/rollups.repository.ts';
import { ImportError, importFolder, type ImportAs } from '../modules/transfer/import-folder.ts';
import { importRoisService } from '../modules/transfer/import-rois.ts';
import { blobStoreOf } from '../storage/s3-blobs.ts';

const USAGE = `usage: npm run import -- <dir> --station <dev_id> [--as hi|reference] [--pixel-size <µm>]

Imports a folder holding one sub-folder of images per class as human-identified ROIs of the station.
  --as hi          (default) the images become HI ROIs of their class
  --as reference   the same, and each class is also filed in the station's team library (-2)
  --pixel-size µm  micrometres per pixel of these images, where another instrument than the station's took them:
                   stored on each imported image as its own pixel size (default: the station's)
Capture times come from the set's labels.csv where it has a path column and a time column (captured_at, time,
timestamp...: unix seconds, milliseconds or ISO 8601, UTC unless it says otherwise), else from file names carrying unix
seconds (SPC-<camera>-<seconds>-...), else from the file's own modification time; the summary says how many came from each.
A folder named like an EcoTaxa category folder (detritus__84963) is the class without its __<taxon id>.
The database and image store are those of the server (DATABASE_URL, DATA_DIR). Re-running is safe.`;

function progressBar(done: number, total: number, file: string) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${file}`.slice(0, 110);
  if (process.stderr.isTTY) process.stderr.write(`\r${line.padEnd(110)}`);
  else if (done === total || done % Math.max(1, Math.floor(total / 10)) === 0) process.stderr.write(`${line}\n`);
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        station: { type: 'string' },
        as: { type: 'string', default: 'hi' },
        'pixel-size': { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    console.error(`import: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (args.values.help) {
    console.log(USAGE);
    return 0;
  }
  const [dir] = args.positionals;
  const as = args.values.as;
  if (!dir || !args.values.station || (as !== 'hi' && as !== 'reference') || args.positionals.length > 1) {
    console.error(USAGE);
    return 2;
  }
  const pixelText = args.values['pixel-size'];
  const pixelSizeUm = pixelText === undefined ? undefined : Number(pixelText);
  if (pixelSizeUm !== undefined && !(pixelSizeUm >= 0.01 && pixelSizeUm <= 1000)) {
    console.error(`import: --pixel-size must be a number of micrometres per pixel from 0.01 to 1000, not "${pixelText}"`);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`import: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const db = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const { rois, close } = importRoisService(db, systemClock, blobStoreOf(config), {
    statsUtcOffset: config.STATS_UTC_OFFSET,
    featureWorkers: config.FEATURE_WORKERS,
  });
  try {
    await migrateToLatest(db);
    await ensureDayRollups(db.kysely, db.dialect, config.STATS_UTC_OFFSET);
    const started = Date.now();
    const report = await importFolder(db, rois, systemClock, {
      dir: path.resolve(dir),
      devId: args.values.station,
      as: as as ImportAs,
      ...(pixelSizeUm === undefined ? {} : { pixelSizeUm }),
      onProgress: progressBar,
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    for (const c of report.classes)
      console.log(
        `${c.folder.padEnd(24)} → ${c.class}${c.created ? ' (new class)' : ''}: ${c.images} stored` +
          (c.duplicates > 0 ? `, ${c.duplicates} already there` : ''),
      );
    const times = report.capture_times;
    if (times)
      console.log(
        `capture times: ${times.labels_csv} from labels.csv, ${times.file_name} from file names, ` +
          `${times.file_time} from the files' modification times`,
      );
    console.log(
      `${report.station}: ${report.imported} imported, ${report.duplicates} already there, ${report.failed_total} failed, ` +
        `${report.classes.length} classes, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const c of report.conflicts)
      console.error(`  same image as ROI ${c.roi_id}, which keeps ${c.kept}: ${c.file} (folder says ${c.class})`);
    if (report.conflicts_total > report.conflicts.length)
      console.error(`  … and ${report.conflicts_total - report.conflicts.length} more images already stored under another class`);
    for (const f of report.failed) console.error(`  failed ${f.file}: ${f.reason}`);
    if (report.failed_total > report.failed.length)
      console.error(
        `  … and ${report.failed_total - report.failed.length} more failed (the first ${report.failed.length} are listed)`,
      );
    return report.failed_total > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof ImportError) {
      console.error(`import: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await close();
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

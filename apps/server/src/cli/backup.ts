import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { BackupError, backupEmbedded, restoreEmbedded, type Progress } from '../storage/backup.ts';

const USAGE = `usage: npm run backup -- <backup-dir>
       npm run restore -- <backup-dir> [--force]

backup   copies the embedded database (SQLite's online backup: a consistent snapshot, the server may keep running)
         and the image files of DATA_DIR into <backup-dir>; running it again into the same folder brings it up to date.
restore  puts a backup into DATA_DIR, which must hold no database (--force moves the one there aside, never deletes
         it). Stop the server first. With DATABASE_URL (PostgreSQL) or STORAGE_URL (S3), use those systems' own
         tools instead: docs/deployment.md "Backups".`;

const bar: Progress = (step, done, total) => {
  const width = 30;
  const filled = total > 0 ? Math.round((done / total) * width) : width;
  const line = `${step.padEnd(8)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`;
  if (process.stderr.isTTY) process.stderr.write(`\r${line.padEnd(70)}${done === total ? '\n' : ''}`);
  else if (done === total) process.stderr.write(`${line}\n`);
};

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { force: { type: 'boolean', default: false }, help: { type: 'boolean' } },
    });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const [command, dir, ...rest] = args.positionals;
  if (args.values.help || (command !== 'backup' && command !== 'restore') || !dir || rest.length > 0) {
    console.error(USAGE);
    return args.values.help ? 0 : 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${command}: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (config.DATABASE_URL || config.STORAGE_URL) {
    console.error(
      `${command}: this command backs up the embedded default (SQLite and image files in DATA_DIR); with DATABASE_URL or STORAGE_URL set, use pg_dump / pg_restore and the bucket's own copy (docs/deployment.md "Backups")`,
    );
    return 2;
  }
  try {
    const t0 = performance.now();
    const done =
      command === 'backup'
        ? await backupEmbedded(config.DATA_DIR, dir, bar)
        : await restoreEmbedded(dir, config.DATA_DIR, { force: args.values.force, progress: bar });
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(
      `${command}: ${done.rois} ROIs, ${done.images} image files, ${(done.bytes / 1e6).toFixed(1)} MB in ${seconds} s` +
        (command === 'backup' ? ` into ${dir}` : ` into ${config.DATA_DIR}`) +
        ('movedAside' in done && done.movedAside ? `; the previous database is at ${done.movedAside}` : ''),
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(`${command}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();

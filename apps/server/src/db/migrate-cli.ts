import { loadConfig } from '../config.ts';
import { openDatabase } from './database.ts';
import { migrateToLatest } from './migrate.ts';

const config = loadConfig();
const db = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  const applied = await migrateToLatest(db);
  console.log(`${db.describe}: ${applied.length ? `applied ${applied.join(', ')}` : 'already up to date'}`);
} finally {
  await db.close();
}

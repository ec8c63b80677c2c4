import pg from 'pg';
import { TEST_DATABASE_URL } from './pg-admin.ts';

export { TEST_DATABASE_URL };

/** In CI (or with REQUIRE_PG=1) a missing PostgreSQL fails the run instead of skipping. */
const required = process.env.CI === 'true' || process.env.REQUIRE_PG === '1';

async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `npm run test:fast` (TEST_DIALECTS=sqlite) leaves PostgreSQL out on purpose; CI and `npm test` never do. */
export const sqliteOnly = process.env.TEST_DIALECTS === 'sqlite';
if (sqliteOnly && required) {
  throw new Error('TEST_DIALECTS=sqlite is the inner loop (npm run test:fast); CI and REQUIRE_PG=1 run both databases');
}
const pgProblem = sqliteOnly ? 'not asked for' : await postgresReachable();
if (pgProblem && required) {
  throw new Error(`PostgreSQL is required here (CI or REQUIRE_PG=1) but ${TEST_DATABASE_URL} is not reachable: ${pgProblem}`);
}
if (sqliteOnly) {
  console.warn('\n*** SKIPPING the PostgreSQL half of the server suites: TEST_DIALECTS=sqlite (npm run test:fast).\n');
} else if (pgProblem) {
  console.warn(
    `\n*** SKIPPING the PostgreSQL half of the server suites: ${TEST_DATABASE_URL} is not reachable (${pgProblem}).` +
      `\n*** Start PostgreSQL or set TEST_DATABASE_URL; CI fails instead of skipping.\n`,
  );
}

export type TestDialect = 'sqlite' | 'postgres';
/** The dialects every database-backed suite runs on. */
export const dialects: TestDialect[] = pgProblem ? ['sqlite'] : ['sqlite', 'postgres'];

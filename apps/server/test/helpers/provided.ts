/** What test/global-setup.ts provides to every test file (vitest's `inject`). */
declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated SQLite file that each test world copies instead of migrating its own. */
    sqliteTemplate: string;
    /** A migrated PostgreSQL database each test world is created from (CREATE DATABASE … TEMPLATE), or null without PostgreSQL. */
    pgTemplate: string | null;
  }
}

export {};

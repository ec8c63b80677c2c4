/**
 * db/schema.ts is written by hand: Kysely trusts it for every query's types, so a column it names that the
 * migrations never made (or one they made that it forgets, or a nullability that differs) would type-check and fail
 * at run time. This reads the Database interface with the TypeScript parser and compares every table, column and
 * nullability with the database the migrations produce, on both dialects.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';

type Columns = Record<string, { nullable: boolean }>;

/**
 * Tables → columns → nullable, as schema.ts declares them, read with TypeScript's type checker (so interfaces,
 * aliases, `Omit<…> & {…}` and mapped types all resolve as the compiler sees them). A Kysely `ColumnType` or
 * `Generated` column is nullable when its select type is.
 */
export function declaredSchema(file: string): Record<string, Columns> {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const database = source.statements.find(
    (node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === 'Database',
  );
  if (!database) throw new Error('schema.ts has no Database interface');
  const nullable = (type: ts.Type) => type.isUnion() && type.types.some((t) => (t.flags & ts.TypeFlags.Null) !== 0);
  const tables: Record<string, Columns> = {};
  for (const table of checker.getPropertiesOfType(checker.getTypeAtLocation(database))) {
    const columns: Columns = {};
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
      const type = checker.getTypeOfSymbol(column);
      const select = type.getProperty('__select__');
      columns[column.name] = { nullable: nullable(select ? checker.getTypeOfSymbol(select) : type) };
    }
    tables[table.name] = columns;
  }
  return tables;
}

const SCHEMA_FILE = path.resolve(import.meta.dirname, '../src/db/schema.ts');
/** Kysely's own bookkeeping, not part of the application's schema. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

describe.each(dialects)('schema.ts against the migrated database (%s)', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await buildTestApp(dialect);
  });
  afterAll(() => env.close());

  it('names every table and column the migrations make, with the same nullability', async () => {
    const declared = declaredSchema(SCHEMA_FILE);
    const actual: Record<string, Columns> = {};
    for (const table of await env.db.kysely.introspection.getTables()) {
      if (MIGRATOR_TABLES.has(table.name)) continue;
      actual[table.name] = Object.fromEntries(table.columns.map((c) => [c.name, { nullable: c.isNullable }]));
    }
    expect(Object.keys(declared).length).toBeGreaterThan(30);
    // A SQLite INTEGER PRIMARY KEY is reported nullable by the pragma; it is never null (it is the rowid).
    if (dialect === 'sqlite') {
      const pks = await sql<{ tbl: string; col: string }>`
        select m.name as tbl, p.name as col from sqlite_master m join pragma_table_info(m.name) p
        where m.type = 'table' and p.pk > 0`.execute(env.db.kysely);
      for (const { tbl, col } of pks.rows) if (actual[tbl]?.[col]) actual[tbl][col].nullable = false;
    }
    expect(actual).toEqual(declared);
  });
});

describe('the drift check itself', () => {
  it('reads tables declared by interface and inline, and nullability from the type', () => {
    const dir = fs.mkdtempSync(path.join(import.meta.dirname, 'tmp-schema-'));
    const file = path.join(dir, 'schema.ts');
    fs.writeFileSync(
      file,
      `import type { ColumnType, Generated } from 'kysely';
       interface ATable { id: Generated<number>; note: string | null; hour: number }
       type CTable = Omit<ATable, 'hour' | 'note'> & { day: number };
       export interface Database { a: ATable; b: { key: string; value: ColumnType<string, string, never> }; c: CTable }`,
    );
    try {
      expect(declaredSchema(file)).toEqual({
        a: { id: { nullable: false }, note: { nullable: true }, hour: { nullable: false } },
        b: { key: { nullable: false }, value: { nullable: false } },
        c: { id: { nullable: false }, day: { nullable: false } },
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

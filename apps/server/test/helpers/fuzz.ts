import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { TestEnv } from './build.ts';

/**
 * Request generation from the OpenAPI description the app serves at /api/docs (itself produced from the zod
 * contracts), for the route fuzzer (fuzz-routes.property.test.ts). Values are a mix of conforming ones (so the
 * request gets past validation and reaches the handler and the database) and hostile ones (wrong types, huge,
 * negative, unicode, injection strings), with fields dropped and extra fields added.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  format?: string;
  pattern?: string;
}

export interface Operation {
  method: 'GET' | 'POST';
  /** The OpenAPI path, `{name}` for path parameters. */
  path: string;
  pathParams: { name: string; schema: JsonSchema }[];
  query: { name: string; schema: JsonSchema; required: boolean }[];
  /** The JSON body's schema, when the route takes one. */
  body: JsonSchema | null;
  /** Authenticated by the device key (security: deviceKey) rather than a user token. */
  device: boolean;
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        security?: Record<string, unknown>[];
      }
    >
  >;
}

export function operationsOf(doc: unknown): Operation[] {
  const ops: Operation[] = [];
  for (const [p, methods] of Object.entries((doc as OpenApiDoc).paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      ops.push({
        method: method.toUpperCase() as Operation['method'],
        path: p,
        pathParams: params.filter((x) => x.in === 'path').map((x) => ({ name: x.name, schema: x.schema })),
        query: params
          .filter((x) => x.in === 'query')
          .map((x) => ({ name: x.name, schema: x.schema, required: x.required === true })),
        body: op.requestBody?.content['application/json']?.schema ?? null,
        device: (op.security ?? []).some((s) => 'deviceKey' in s),
      });
    }
  }
  return ops;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Strings that have broken servers: SQL and template injection, traversal, NUL, lone surrogates, numeric edge text. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '-0',
  '1e309',
  '1e-400',
  'NaN',
  'Infinity',
  '0x10',
  '1_000',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '99999999999999999999999',
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  'id desc; delete from rois',
  'asc, (select 1)',
  '"',
  '\\',
  '%',
  '_',
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  'a\u0000b',
  '\u0000',
  '\ud800',
  '\u202e\u0041',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🦠',
  '浮游生物',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '2026-13-45',
  '2026-11-24T25:61:00Z',
];

const HOSTILE_NUMBERS = [
  0,
  -1,
  -0,
  0.5,
  -0.5,
  1e-300,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  MAX_SAFE,
  -MAX_SAFE,
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 300, maxLength: 5000 }) },
  { weight: 1, arbitrary: fc.constant('x'.repeat(200_000)) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** Anything but the expected: a hostile scalar, or an array or object where a scalar belongs. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.constantFrom('a', 'id', '__proto__', '$gt', 'constructor'), hostileScalar, { maxKeys: 3 }),
  },
);

function typesOf(s: JsonSchema): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.properties) return ['object'];
  return [];
}

function numberBounds(s: JsonSchema) {
  let min = s.minimum ?? -MAX_SAFE;
  let max = s.maximum ?? MAX_SAFE;
  if (s.exclusiveMinimum === true) min = above(min);
  if (typeof s.exclusiveMinimum === 'number') min = above(s.exclusiveMinimum);
  if (s.exclusiveMaximum === true) max = below(max);
  if (typeof s.exclusiveMaximum === 'number') max = below(s.exclusiveMaximum);
  return { min, max };
}

const above = (x: number) => (Number.isInteger(x) ? x + 1 : x + Number.EPSILON * Math.max(1, Math.abs(x)));
const below = (x: number) => (Number.isInteger(x) ? x - 1 : x - Number.EPSILON * Math.max(1, Math.abs(x)));

/** A value the schema accepts, biased to its edges and to small ids (which name objects that exist). */
export function conforming(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => conforming(a, depth)));
  if (s.allOf?.length) return conforming(s.allOf[0]!, depth);
  const types = typesOf(s);
  const base =
    types.length === 0
      ? fc.oneof(fc.integer({ min: 0, max: 5 }), fc.string({ maxLength: 8 }))
      : fc.oneof(...types.map((t) => ofType(s, t, depth)));
  return s.nullable ? fc.oneof(fc.constant(null), base) : base;
}

function ofType(s: JsonSchema, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'integer': {
      const { min, max } = numberBounds(s);
      const lo = Math.max(Math.ceil(min), -MAX_SAFE);
      const hi = Math.min(Math.floor(max), MAX_SAFE);
      if (lo > hi) return fc.constant(lo);
      const small = fc.integer({ min: Math.max(lo, Math.min(hi, -3)), max: Math.min(hi, Math.max(lo, 8)) });
      return fc.oneof(
        { weight: 4, arbitrary: small },
        { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
        { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) },
      );
    }
    case 'number': {
      const { min, max } = numberBounds(s);
      const lo = Math.max(min, -1e12);
      const hi = Math.min(max, 1e12);
      if (lo > hi) return fc.constant(min);
      return fc.oneof(fc.double({ min: lo, max: hi, noNaN: true }), fc.constantFrom(lo, hi));
    }
    case 'string': {
      const minLength = s.minLength ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 64));
      if (s.format === 'email') return fc.emailAddress();
      return fc.oneof(
        { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
        { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
        { weight: 1, arbitrary: fc.constant('x'.repeat(s.maxLength ?? 64)) },
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 3) return fc.constant([]);
      const item = s.items ? conforming(s.items, depth + 1) : fc.integer({ min: 0, max: 5 });
      const minLength = s.minItems ?? 0;
      return fc.array(item, { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 5, 6)) });
    }
    case 'object': {
      if (depth > 3) return fc.constant({});
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const keys = Object.keys(props);
      if (keys.length === 0) return fc.constant({});
      return fc.record(Object.fromEntries(keys.map((k) => [k, conforming(props[k]!, depth + 1)])), {
        requiredKeys: keys.filter((k) => required.has(k)),
      });
    }
    default:
      return fc.constant(null);
  }
}

/** Mostly conforming, with hostile values at any depth, required fields dropped and unknown fields added. */
export function mutated(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const types = typesOf(s);
  if (types.includes('object') && s.properties && depth <= 3) {
    const props = s.properties;
    const keys = Object.keys(props);
    const record = fc.record(Object.fromEntries(keys.map((k) => [k, mutated(props[k]!, depth + 1)])), {
      requiredKeys: [],
    });
    const extras = fc.dictionary(
      fc.constantFrom('extra', 'id', 'role', 'group_id', '__proto__', 'is_demo', 'password_hash'),
      hostile,
      {
        maxKeys: 2,
      },
    );
    const full = fc.tuple(record, fc.option(extras, { freq: 5 })).map(([r, e]) => (e ? { ...r, ...e } : r));
    return fc.oneof({ weight: 10, arbitrary: full }, { weight: 1, arbitrary: hostile });
  }
  if (types.includes('array') && s.items && depth <= 3) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.array(mutated(s.items, depth + 1), { maxLength: 6 }) },
      { weight: 1, arbitrary: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1000, maxLength: 3000 }) },
      { weight: 1, arbitrary: hostile },
    );
  }
  return fc.oneof({ weight: 3, arbitrary: conforming(s, depth) }, { weight: 2, arbitrary: hostile });
}

/** A query string value as a client could send it: scalars as text, arrays as repeated keys. */
function queryText(value: unknown): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(queryText);
  if (value !== null && typeof value === 'object') return [JSON.stringify(value)];
  return [String(value)];
}

/** A path segment as a client would encode it; a lone surrogate (not encodable) as the bytes of one, invalid UTF-8. */
function pathSegment(text: string) {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

export interface GeneratedRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const RAW_BODIES = [
  '{',
  '{"a":',
  '[1,2',
  'null',
  '"just a string"',
  '12',
  '',
  '\u0000',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
  '\ufeff{}',
];

const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
];

/** A multipart body, well formed or not, with hostile field values and file parts (names, types, contents). */
const multipart: fc.Arbitrary<{ payload: Buffer; contentType: string }> = fc
  .record({
    boundary: fc.constantFrom('fuzz-boundary', 'x', 'a'.repeat(70)),
    headerBoundary: fc.constantFrom('same', 'missing', 'other'),
    fields: fc.array(
      fc.tuple(
        fc.constantFrom(
          'file',
          'captured_at',
          'label_index',
          'confidence',
          'size_px',
          'group_id',
          'dev_id',
          'name',
          'x',
          '../x',
          '',
        ),
        fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.integer().map(String), fc.constant('1732435200000')),
      ),
      { maxLength: 6 },
    ),
    files: fc.array(
      fc.record({
        field: fc.constantFrom('file', 'logo', 'image', 'zip', 'x'),
        filename: fc.constantFrom(
          'roi.png',
          '../../../etc/passwd',
          '..%2f..%2fx.png',
          '/abs/x.png',
          'a\u0000.png',
          'C:\\x.png',
          '',
          '浮游.png',
        ),
        type: fc.constantFrom('image/png', 'image/jpeg', 'application/zip', 'text/plain', 'application/octet-stream'),
        content: fc.oneof(
          fc.constant(Buffer.from('not an image at all')),
          fc.constant(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])),
          fc.constant(Buffer.from('PK\u0003\u0004garbage')),
          fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a)),
        ),
      }),
      { maxLength: 2 },
    ),
    truncate: fc.boolean(),
  })
  .map(({ boundary, headerBoundary, fields, files, truncate }) => {
    const parts: Buffer[] = [];
    for (const [name, value] of fields) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    }
    for (const f of files) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
        ),
        f.content,
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    let payload = Buffer.concat(parts);
    if (truncate) payload = payload.subarray(0, Math.floor(payload.length / 2));
    const contentType =
      headerBoundary === 'missing'
        ? 'multipart/form-data'
        : `multipart/form-data; boundary=${headerBoundary === 'same' ? boundary : 'not-the-boundary'}`;
    return { payload, contentType };
  });

export interface Credentials {
  /** User tokens, the first the most used (superadmin, so requests reach validation and handlers). */
  tokens: string[];
  deviceKey: string;
}

/** Requests for one operation. */
export function requestsFor(op: Operation, creds: () => Credentials): fc.Arbitrary<GeneratedRequest> {
  const pathValues = fc.record(
    Object.fromEntries(
      op.pathParams.map((p) => [
        p.name,
        fc.oneof(
          conforming(p.schema),
          fc.constantFrom(...HOSTILE_STRINGS),
          fc.constantFrom('..', '.', '%2e%2e', '..%2f..%2fpackage.json'),
        ),
      ]),
    ),
  );
  const queryValues = fc.record(
    Object.fromEntries(
      op.query.map((q) => [
        q.name,
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 3, arbitrary: conforming(q.schema) },
          { weight: 3, arbitrary: hostile },
          { weight: 1, arbitrary: fc.tuple(conforming(q.schema), hostile) },
        ),
      ]),
    ),
  );
  const extraQuery = fc.option(
    fc.tuple(fc.constantFrom('extra', 'limit[]', 'page[$gt]', '__proto__', 'sort', 'order'), hostile),
    {
      freq: 4,
    },
  );
  const body: fc.Arbitrary<{ payload?: string | Buffer; contentType?: string }> =
    op.method === 'GET'
      ? fc.constant({})
      : op.body
        ? fc.oneof(
            {
              weight: 12,
              arbitrary: mutated(op.body).map((v) => ({ payload: JSON.stringify(v) ?? 'null', contentType: 'application/json' })),
            },
            {
              weight: 2,
              arbitrary: fc.record({ payload: fc.constantFrom(...RAW_BODIES), contentType: fc.constantFrom(...CONTENT_TYPES) }),
            },
            { weight: 1, arbitrary: multipart },
          )
        : fc.oneof(
            { weight: 3, arbitrary: multipart },
            { weight: 1, arbitrary: fc.constant({}) },
            {
              weight: 1,
              arbitrary: fc.record({ payload: fc.constantFrom(...RAW_BODIES), contentType: fc.constantFrom(...CONTENT_TYPES) }),
            },
          );
  const credential = fc.oneof(
    { weight: 14, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom('none', 'garbage', 'wrong-kind') },
  );
  const lang = fc.constantFrom('zh', 'en', 'en', 'zh-CN', 'fr', '');
  return fc.record({ pathValues, queryValues, extraQuery, body, credential, lang }).map((r) => {
    let url = op.path;
    for (const [name, value] of Object.entries(r.pathValues)) url = url.replace(`{${name}}`, pathSegment(String(value)));
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(r.queryValues)) for (const text of queryText(value)) search.append(name, text);
    if (r.extraQuery) for (const text of queryText(r.extraQuery[1])) search.append(r.extraQuery[0], text);
    const qs = search.toString();
    if (qs) url += `?${qs}`;
    const headers: Record<string, string> = {};
    if (r.lang) headers['x-lang'] = r.lang;
    const c = creds();
    if (r.credential === 'garbage') headers[op.device ? 'x-device-key' : 'x-token'] = 'garbage-credential-\u00e9';
    else if (r.credential === 'wrong-kind') {
      if (op.device) headers['x-token'] = c.tokens[0]!;
      else headers['x-device-key'] = c.deviceKey;
    } else if (r.credential !== 'none') {
      if (op.device) headers['x-device-key'] = c.deviceKey;
      else headers['x-token'] = c.tokens[r.credential % c.tokens.length]!;
    }
    if (r.body.contentType) headers['content-type'] = r.body.contentType;
    return { method: op.method, url, headers, ...(r.body.payload !== undefined ? { payload: r.body.payload } : {}) };
  });
}

/**
 * Everything the database holds, as text: every table's rows, order-independent. Leaves out what a refused request may
 * rightly write: failed sign-ins (the throttle counts them) and a session's last-seen time.
 */
/** The tables compared, read once per database: the schema does not change during a run (2 of the 5.6 ms a state took). */
const tableLists = new WeakMap<TestEnv['db'], Promise<{ name: string }[]>>();
function tablesOf(env: TestEnv) {
  let tables = tableLists.get(env.db);
  if (!tables) {
    tables = env.db.kysely.introspection.getTables().then((all) => all.filter((t) => t.name !== 'login_failures'));
    tableLists.set(env.db, tables);
  }
  return tables;
}

export async function databaseState(env: TestEnv): Promise<string> {
  if (env.db.dialect === 'postgres') {
    // Only this suite's schema, read from the catalogue directly: the introspection lists every schema's tables, and
    // other suites beside this one drop theirs while it reads ("schema … does not exist").
    const columns = await sql<{ tbl: string; col: string }>`
      select table_name as tbl, column_name as col from information_schema.columns
      where table_schema = current_schema() order by table_name, ordinal_position`.execute(env.db.kysely);
    const byTable = new Map<string, string[]>();
    for (const { tbl: table, col: column } of columns.rows) {
      if (table === 'login_failures' || (table === 'sessions' && column === 'last_seen_at')) continue;
      byTable.set(table, [...(byTable.get(table) ?? []), column]);
    }
    const parts = [...byTable].map(([table, cols]) => {
      const list = cols.map((c) => `"${c}"`).join(', ');
      return `(select '${table}:' || count(*) || ':' || coalesce(md5(string_agg(x::text, ',' order by x::text)), '') from (select ${list} from "${table}") x)`;
    });
    const row = await sql<{ state: string }>`select ${sql.raw(parts.join(` || '|' || `))} as state`.execute(env.db.kysely);
    return row.rows[0]!.state;
  }
  const tables = await tablesOf(env);
  const out: string[] = [];
  for (const t of tables) {
    const rows = await env.db.kysely
      .selectFrom(t.name as never)
      .selectAll()
      .execute();
    const texts = rows.map((r) => {
      const copy = { ...(r as Record<string, unknown>) };
      if (t.name === 'sessions') delete copy.last_seen_at;
      return JSON.stringify(copy, (_k, v: unknown) =>
        Buffer.isBuffer(v) ? v.toString('base64') : typeof v === 'bigint' ? String(v) : v,
      );
    });
    out.push(`${t.name}:${texts.sort().join(',')}`);
  }
  return out.join('|');
}

/** Every file under the data directory but the database's own, with its size. */
export function filesState(dataDir: string): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!/\.sqlite(-wal|-shm|-journal)?$/.test(entry.name))
        out.push(`${path.relative(dataDir, full)}:${fs.statSync(full).size}`);
    }
  };
  walk(dataDir);
  return out.sort().join('\n');
}

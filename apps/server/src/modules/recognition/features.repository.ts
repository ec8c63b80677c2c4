import { CATEGORY } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { idChunks } from '../../db/query-helpers.ts';
import type { Measures } from './features.ts';

/** One ROI's stored features: the vector, the similarity descriptor and the morphology. */
export interface StoredFeatures {
  roi_id: number;
  version: number;
  values: Float32Array;
  sim: Int8Array;
  measures: Measures;
}

export const encodeFloats = (values: Float32Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength);
export const encodeInt8 = (values: Int8Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength);

/** Copies (the driver's buffer may be unaligned or pooled) into a Float32Array. */
export function decodeFloats(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}
export const decodeInt8 = (bytes: Uint8Array) => new Int8Array(Uint8Array.from(bytes).buffer);

/**
 * Inserts or replaces ROIs' features (computing them again replaces them), in the caller's transaction. Features of
 * stored ROIs computed again go through `storeRecomputedFeatures` (recomputed-features.ts), which also moves the
 * ROIs whose biovolume changed in the size rollups.
 */
export async function saveFeatures(trx: Kysely<Database>, rows: readonly StoredFeatures[]) {
  for (const part of idChunks(rows, 200)) {
    await trx
      .insertInto('roi_features')
      .values(
        part.map((f) => ({
          roi_id: f.roi_id,
          version: f.version,
          vec: encodeFloats(f.values),
          sim: encodeInt8(f.sim),
          measures: JSON.stringify(f.measures),
          biovolume: f.measures.biovolume_px3,
        })),
      )
      .onConflict((oc) =>
        oc.column('roi_id').doUpdateSet((eb) => ({
          version: eb.ref('excluded.version'),
          vec: eb.ref('excluded.vec'),
          sim: eb.ref('excluded.sim'),
          measures: eb.ref('excluded.measures'),
          biovolume: eb.ref('excluded.biovolume'),
        })),
      )
      .execute();
  }
}

/** The stored features of these ROIs at this feature version (older versions count as missing). */
export async function loadFeatures(db: Kysely<Database>, roiIds: readonly number[], version: number) {
  const out = new Map<number, StoredFeatures>();
  for (const part of idChunks(roiIds)) {
    const rows = await db
      .selectFrom('roi_features')
      .select(['roi_id', 'version', 'vec', 'sim', 'measures'])
      .where('roi_id', 'in', part)
      .where('version', '=', version)
      .execute();
    for (const r of rows) {
      out.set(r.roi_id, {
        roi_id: r.roi_id,
        version: r.version,
        values: decodeFloats(r.vec),
        sim: decodeInt8(r.sim),
        measures: JSON.parse(r.measures) as Measures,
      });
    }
  }
  return out;
}

export async function loadMeasures(db: Kysely<Database>, roiId: number): Promise<Measures | null> {
  const row = await db.selectFrom('roi_features').select('measures').where('roi_id', '=', roiId).executeTakeFirst();
  return row ? (JSON.parse(row.measures) as Measures) : null;
}

/** The measures of several ROIs, by id (ROIs without features are absent). */
export async function loadMeasuresOf(db: Kysely<Database>, roiIds: readonly number[]): Promise<Map<number, Measures>> {
  const out = new Map<number, Measures>();
  if (roiIds.length === 0) return out;
  const rows = await db.selectFrom('roi_features').select(['roi_id', 'measures']).where('roi_id', 'in', roiIds).execute();
  for (const row of rows) out.set(row.roi_id, JSON.parse(row.measures) as Measures);
  return out;
}

/**
 * The reference ROIs a team compares against (the Xcube library and the team's own library), with their folder and
 * descriptor; live ROIs only, the asked one left out.
 */
export function referenceDescriptors(db: Kysely<Database>, team: number, exceptRoiId: number) {
  return db
    .selectFrom('folder_rois as fr')
    .innerJoin('roi_folders as f', 'f.id', 'fr.folder_id')
    .innerJoin('rois as r', 'r.id', 'fr.roi_id')
    .innerJoin('roi_features as x', 'x.roi_id', 'fr.roi_id')
    .select(['fr.roi_id', 'fr.folder_id', 'f.title', 'x.sim'])
    .where('r.deleted_at', 'is', null)
    .where('fr.roi_id', '!=', exceptRoiId)
    .where((eb) =>
      eb.or([
        eb('f.category_id', '=', CATEGORY.XCUBE),
        eb.and([eb('f.category_id', '=', CATEGORY.TEAM), eb('f.group_id', '=', team)]),
      ]),
    )
    .execute();
}

/** Rows descriptorsAfter reads per query (the similarity index loads and catches up this many at a time). */
export const DESCRIPTORS_PER_READ = 20_000;

/**
 * The descriptors of roi_features above an id, in id order, with each live ROI's station. Each table is read by its
 * primary key on its own, so no plan depends on planner statistics (a join of roi_features, rois and ipps took
 * seconds per query on a 1M-ROI SQLite without them, and after ANALYZE SQLite chose a skip-scan of another rois index
 * and a sort). `scanned` counts the roi_features rows read and `last` is the highest id among them.
 */
export async function descriptorsAfter(db: Kysely<Database>, after: number, limit = DESCRIPTORS_PER_READ) {
  const rows = await db
    .selectFrom('roi_features')
    .select(['roi_id', 'sim'])
    .where('roi_id', '>', after)
    .orderBy('roi_id')
    .limit(limit)
    .execute();
  const stationOf = new Map<number, number>();
  for (const part of idChunks(rows.map((r) => r.roi_id))) {
    const live = await db
      .selectFrom('rois')
      .select(['id', 'ipp_id'])
      .where('id', 'in', part)
      .where('deleted_at', 'is', null)
      .execute();
    for (const r of live) stationOf.set(r.id, r.ipp_id);
  }
  return {
    scanned: rows.length,
    last: rows.length > 0 ? rows[rows.length - 1]!.roi_id : after,
    live: rows.filter((r) => stationOf.has(r.roi_id)).map((r) => ({ ...r, ipp_id: stationOf.get(r.roi_id)! })),
  };
}

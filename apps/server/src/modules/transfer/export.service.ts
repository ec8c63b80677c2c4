import { Readable, Transform } from 'node:stream';
import { EXPORT_MAX, labelKindOf, ResultCode, type RoiListQueryParsed, type Taxon } from '@ipp/contracts';
import { CSV_BOM, csvRow } from '@ipp/contracts/csv';
import yazl from 'yazl';
import type { Db } from '../../db/database.ts';
import { idChunks } from '../../db/query-helpers.ts';
import type { ClassTaxaTable } from '../../db/schema.ts';
import * as taxaRepo from '../taxa/taxa.repository.ts';
import { effectiveTaxon } from '../taxa/taxa.service.ts';
import { AppError } from '../../http/app-error.ts';
import { requireAllOwned } from '../access/access.ts';
import { originalName, type BlobStore } from '../../storage/blobs.ts';
import * as browse from '../identify/browse.repository.ts';
import type { IdentifyService } from '../identify/identify.service.ts';
import * as roisRepo from '../rois/rois.repository.ts';
import * as usersRepo from '../users/users.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import type { Measures } from '../recognition/features.ts';
import { loadMeasuresOf } from '../recognition/features.repository.ts';
import { cellNumber, physicalOf } from '../recognition/physical.ts';
import * as rollups from '../stats/rollups.repository.ts';
import { configVersionsOf } from '../device/config-history.repository.ts';
import { configTimeline } from '../ipps/config-in-force.ts';
import {
  ECOTAXA_TSV,
  ecotaxaHead,
  ecotaxaImage,
  ecotaxaLine,
  REVIEW_NAMES,
  utcDayOf,
  type EcotaxaSample,
  type EcotaxaStation,
} from './ecotaxa.ts';
import * as transferRepo from './transfer.repository.ts';
import { roiNotFound } from '../access/not-found.ts';

const PAGE = 1000;
const WINDOW = 16 * 1024 * 1024;

type Station = EcotaxaStation & { group_id: number | null };
/** A row of an export: the ROI's item and its measures (null until its features are computed). */
export type ExportRow = browse.RoiItemRow & { measures: Measures | null };

export interface ExportRequest {
  format: 'csv' | 'ecotaxa';
  roi_ids?: number[];
  query?: Omit<RoiListQueryParsed, 'limit' | 'page' | 'after'>;
}

export interface ExportFile {
  filename: string;
  type: string;
  stream: Readable;
  rows: number;
}

/**
 * Exports of a selection or of a whole list query: CSV, or an EcoTaxa zip (ecotaxa.ts: the TSV EcoTaxa's import
 * validation accepts, and the images in formats it reads). Rows are read a page at a time by keyset, each page with its
 * measures, and streamed, so a 100,000-ROI export never holds its images in memory. The selection is checked like a
 * bulk action: one ROI the caller may not see fails the whole export.
 */
export class ExportService {
  constructor(
    private readonly db: Db,
    private readonly identify: IdentifyService,
    private readonly blobs: BlobStore,
  ) {}

  async export(actor: UserRow, req: ExportRequest, now: number): Promise<ExportFile> {
    const source = await this.source(actor, req);
    const stamp = new Date(now).toISOString().slice(0, 19).replace(/[-:T]/g, '');
    const stations = new Map<number, Station>();
    const stationOf = async (id: number) => {
      if (!stations.has(id)) {
        const s = await transferRepo.findExportStation(this.db.kysely, id);
        stations.set(id, s ?? { latitude: null, longitude: null, pixel_size_um: null, group_id: null });
      }
      return stations.get(id)!;
    };
    const emails = new Map<number, string | null>();
    const emailOf = async (userId: number | null) => {
      if (userId === null) return null;
      if (!emails.has(userId)) emails.set(userId, (await usersRepo.findUserById(this.db.kysely, userId))?.email || null);
      return emails.get(userId)!;
    };
    // Each team's own taxa, read once; a class it has not mapped takes the starter list's.
    const teamTaxa = new Map<number, Map<number, ClassTaxaTable>>();
    const taxonOfRow = async (row: ExportRow, team: number | null): Promise<Taxon | null> => {
      if (row.class_id === null || !row.class_name) return null;
      if (team !== null && !teamTaxa.has(team)) teamTaxa.set(team, await taxaRepo.teamTaxa(this.db.kysely, team));
      return effectiveTaxon(row.class_name, team === null ? undefined : teamTaxa.get(team)!.get(row.class_id));
    };
    const volumes = new Map<string, number | null>();
    const timelines = new Map<number, ReturnType<typeof configTimeline>>();
    const sampleOf = async (ippId: number, time: number): Promise<EcotaxaSample> => {
      const day = utcDayOf(time);
      const key = `${ippId}:${day.start}`;
      if (!volumes.has(key))
        volumes.set(key, await rollups.sampledVolumeL(this.db.kysely, ippId, day.start, day.start + 86_400_000));
      if (!timelines.has(ippId)) timelines.set(ippId, configTimeline(await configVersionsOf(this.db.kysely, [ippId])));
      return { volumeL: volumes.get(key)!, acquisition: timelines.get(ippId)!(time) };
    };
    if (req.format === 'csv') {
      const lines = async function* () {
        yield CSV_BOM + csvRow(CSV_COLUMNS) + '\n';
        for await (const row of source.rows()) {
          const station = await stationOf(row.ipp_id);
          yield csvLine(row, station, await taxonOfRow(row, station.group_id)) + '\n';
        }
      };
      return {
        filename: `rois-${stamp}.csv`,
        type: 'text/csv; charset=utf-8',
        stream: Readable.from(lines()),
        rows: source.total,
      };
    }
    const zip = new yazl.ZipFile();
    // Backpressure: stop adding images while more than WINDOW bytes wait to be read by the client.
    let added = 0;
    let sent = 0;
    let wake: (() => void) | null = null;
    const out = new Transform({
      transform(chunk: Buffer, _enc, done) {
        sent += chunk.length;
        wake?.();
        done(null, chunk);
      },
    });
    out.on('close', () => wake?.());
    zip.outputStream.pipe(out);
    const fill = async () => {
      const tsv: string[] = [ecotaxaHead()];
      for await (const row of source.rows()) {
        const blob = await this.blobs.get(originalName(row.sha256, row.mime));
        let name = `images/${row.id}.${originalName(row.sha256, row.mime).split('.').pop()}`;
        if (blob) {
          const image = await ecotaxaImage(blob.data, row.mime);
          name = `images/${row.id}.${image.extension}`;
          zip.addBuffer(image.data, name, { compress: false });
          added += image.data.length;
          while (added - sent > WINDOW && !out.destroyed) await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
        const station = await stationOf(row.ipp_id);
        tsv.push(
          ecotaxaLine(
            row,
            name,
            station,
            await sampleOf(row.ipp_id, Number(row.roi_time)),
            await emailOf(row.labelled_by),
            await taxonOfRow(row, station.group_id),
          ),
        );
      }
      zip.addBuffer(Buffer.from(tsv.join('\n') + '\n', 'utf8'), ECOTAXA_TSV);
      zip.end();
    };
    fill().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
    return { filename: `rois-ecotaxa-${stamp}.zip`, type: 'application/zip', stream: out, rows: source.total };
  }

  private async source(actor: UserRow, req: ExportRequest): Promise<{ total: number; rows: () => AsyncGenerator<ExportRow> }> {
    const k = this.db.kysely;
    // Each page with its ROIs' measures, in one query.
    const measured = async function* (page: browse.RoiItemRow[]): AsyncGenerator<ExportRow> {
      const measures = await loadMeasuresOf(
        k,
        page.map((r) => r.id),
      );
      for (const row of page) yield { ...row, measures: measures.get(row.id) ?? null };
    };
    if (req.roi_ids) {
      const ids = [...new Set(req.roi_ids)];
      const core = await roisRepo.findRoisCore(k, ids);
      requireAllOwned(actor, ids, core, () => roiNotFound('roi_ids'));
      const sorted = [...ids].sort((a, b) => a - b);
      return {
        total: sorted.length,
        rows: async function* () {
          for (const part of idChunks(sorted, PAGE)) yield* measured(await browse.findItems(k, part));
        },
      };
    }
    if (!req.query)
      throw new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'roi_ids', reasonKey: 'reason.required' }, 'roi_ids');
    const filter = await this.identify.filterOf(actor, { ...req.query, limit: PAGE, page: 1 });
    const total = await browse.countUpTo(k, filter, EXPORT_MAX + 1);
    if (total > EXPORT_MAX) throw new AppError(ResultCode.BAD_PARAM, 'exportTooLarge', { max: EXPORT_MAX }, 'query');
    const sort = { field: req.query.diysort, dir: req.query.sorttype };
    return {
      total,
      rows: async function* () {
        let after: browse.Keyset | undefined;
        for (;;) {
          const rows = await browse.page(k, filter, sort, PAGE, { after });
          yield* measured(rows);
          const last = rows.at(-1);
          if (!last || rows.length < PAGE) return;
          after = [browse.sortValueOf(last, sort.field), last.id];
        }
      },
    };
  }
}

const CSV_COLUMNS = [
  'roi_id',
  'dev_id',
  'site_name',
  'roi_time_utc',
  'class',
  'type',
  'confidence',
  'size_px',
  'width',
  'height',
  'bytes',
  'latitude',
  'longitude',
  'review',
  'sha256',
  'pixel_size_um',
  'esd_um',
  'area_um2',
  'biovolume_mm3',
  'taxon',
  'aphia_id',
];

function csvLine(r: ExportRow, s: Station, taxon: Taxon | null) {
  // The ROI's own pixel size where an import gave one, else the station's (coalesced in the item row).
  const physical = physicalOf(r.measures, r.pixel_size_um);
  return csvRow([
    r.id,
    r.dev_id,
    r.site_name,
    new Date(Number(r.roi_time)).toISOString(),
    r.class_name,
    labelKindOf(r.hi, r.roi_labelindex),
    // A hand label has no machine confidence (the detail pane shows none, the EcoTaxa export leaves it empty).
    r.hi === 1 ? '' : r.confidence,
    r.size_px,
    r.width,
    r.height,
    r.bytes,
    s.latitude,
    s.longitude,
    REVIEW_NAMES[r.review_status] ?? '',
    r.sha256,
    r.pixel_size_um,
    cellNumber(physical?.esd_um),
    cellNumber(physical?.area_um2),
    cellNumber(physical?.biovolume_mm3),
    taxon?.name,
    taxon?.aphia_id,
  ]);
}

import { Readable, Transform } from 'node:stream';
import { EXPORT_MAX, ResultCode, type RoiListQueryParsed } from '@ipp/contracts';
import yazl from 'yazl';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { originalName, type BlobStore } from '../../storage/blobs.ts';
import * as browse from '../identify/browse.repository.ts';
import type { IdentifyService } from '../identify/identify.service.ts';
import * as roisRepo from '../rois/rois.repository.ts';
import { roiTypeOf } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { csvCell } from '../../http/csv-cell.ts';

const PAGE = 1000;
const WINDOW = 16 * 1024 * 1024;

interface Station {
  latitude: number | null;
  longitude: number | null;
}

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
 * Exports of a selection or of a whole list query: CSV, or an EcoTaxa-compatible zip (TSV with its type row, and the
 * original images). Rows are read a page at a time by keyset and streamed, so a 100,000-ROI export never sits in
 * memory. The selection is checked like a bulk action: one ROI the caller may not see fails the whole export.
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
        const s = await this.db.kysely
          .selectFrom('ipps')
          .select(['latitude', 'longitude'])
          .where('id', '=', id)
          .executeTakeFirst();
        stations.set(id, s ?? { latitude: null, longitude: null });
      }
      return stations.get(id)!;
    };
    if (req.format === 'csv') {
      const lines = async function* () {
        yield '\uFEFF' + CSV_COLUMNS.join(',') + '\n';
        for await (const row of source.rows()) yield csvLine(row, await stationOf(row.ipp_id)) + '\n';
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
      const tsv: string[] = [ECOTAXA_COLUMNS.map((c) => c[0]).join('\t'), ECOTAXA_COLUMNS.map((c) => c[1]).join('\t')];
      for await (const row of source.rows()) {
        const name = `images/${row.id}.${originalName(row.sha256, row.mime).split('.').pop()}`;
        const blob = await this.blobs.get(originalName(row.sha256, row.mime));
        if (blob) {
          zip.addBuffer(blob.data, name, { compress: false });
          added += blob.data.length;
          while (added - sent > WINDOW && !out.destroyed) await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
        tsv.push(ecotaxaLine(row, name, await stationOf(row.ipp_id)));
      }
      zip.addBuffer(Buffer.from(tsv.join('\n') + '\n', 'utf8'), 'ecotaxa_export.tsv');
      zip.end();
    };
    fill().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
    return { filename: `rois-ecotaxa-${stamp}.zip`, type: 'application/zip', stream: out, rows: source.total };
  }

  private async source(
    actor: UserRow,
    req: ExportRequest,
  ): Promise<{ total: number; rows: () => AsyncGenerator<browse.RoiItemRow> }> {
    const k = this.db.kysely;
    if (req.roi_ids) {
      const ids = [...new Set(req.roi_ids)];
      const core = await roisRepo.findRoisCore(k, ids);
      const visible = core.filter((r) => actor.role === 'superadmin' || r.group_id === actor.group_id);
      if (visible.length !== ids.length) throw new AppError(ResultCode.BAD_PARAM, 'roiNotFound', {}, 'roi_ids');
      const sorted = [...ids].sort((a, b) => a - b);
      return {
        total: sorted.length,
        rows: async function* () {
          for (const part of roisRepo.idChunks(sorted, PAGE)) yield* await browse.findItems(k, part);
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
          yield* rows;
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
];
const REVIEW = ['', 'pending', 'approved', 'rejected'];

function csvLine(r: browse.RoiItemRow, s: Station) {
  return [
    r.id,
    r.dev_id,
    r.site_name,
    new Date(Number(r.roi_time)).toISOString(),
    r.class_name,
    roiTypeOf(r.hi, r.roi_labelindex),
    r.confidence,
    r.size_px,
    r.width,
    r.height,
    r.bytes,
    s.latitude,
    s.longitude,
    REVIEW[r.review_status] ?? '',
    r.sha256,
  ]
    .map(csvCell)
    .join(',');
}

/** EcoTaxa's import format: a header row, then a row of [t] text / [f] number types. */
const ECOTAXA_COLUMNS: [string, '[t]' | '[f]'][] = [
  ['img_file_name', '[t]'],
  ['object_id', '[t]'],
  ['object_lat', '[f]'],
  ['object_lon', '[f]'],
  ['object_date', '[t]'],
  ['object_time', '[t]'],
  ['object_annotation_status', '[t]'],
  ['object_annotation_category', '[t]'],
  ['object_annotation_person_name', '[t]'],
  ['object_area', '[f]'],
  ['object_width', '[f]'],
  ['object_height', '[f]'],
  ['object_confidence', '[f]'],
  ['acq_id', '[t]'],
  ['acq_instrument', '[t]'],
  ['sample_id', '[t]'],
];

const tsvCell = (v: unknown) => (v === null || v === undefined ? '' : String(v).replace(/[\t\r\n]/g, ' '));

function ecotaxaLine(r: browse.RoiItemRow, file: string, s: Station) {
  const iso = new Date(Number(r.roi_time)).toISOString();
  const type = roiTypeOf(r.hi, r.roi_labelindex);
  const status = type === 'hi' ? 'validated' : type === 'ai' ? 'predicted' : '';
  const day = iso.slice(0, 10);
  return [
    file,
    `${r.dev_id}_${r.id}`,
    s.latitude,
    s.longitude,
    day.replace(/-/g, ''),
    iso.slice(11, 19).replace(/:/g, ''),
    status,
    // EcoTaxa categories are names; ours carry the label index in front.
    r.class_name ? r.class_name.slice(3) : '',
    '',
    r.size_px,
    r.width,
    r.height,
    r.confidence,
    r.dev_id,
    'IPP',
    `${r.dev_id}_${day}`,
  ]
    .map(tsvCell)
    .join('\t');
}

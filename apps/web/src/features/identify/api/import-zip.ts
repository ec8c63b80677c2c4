import { ImportProgressSchema, ImportReportSchema, type ImportProgress, type ImportReport } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** Server limit of POST /roi/import, checked here too so nobody uploads half a gigabyte for a refusal. */
export const IMPORT_ZIP_MAX = 512 * 1024 * 1024;

export type ImportFormat = 'folders' | 'ecotaxa';

/**
 * POST /roi/import (administrators): a zip of one folder of images per class as HI images of a station, or an EcoTaxa
 * export with its labels; `progressId` names it so GET /roi/import-progress can follow it.
 */
export async function importZip({
  file,
  devId,
  as,
  format,
  progressId,
  pixelSizeUm,
}: {
  file: File;
  devId: string;
  as: 'hi' | 'reference';
  format: ImportFormat;
  progressId: string;
  /** µm per pixel of images another instrument took (stored on each imported image); absent: the station's. */
  pixelSizeUm?: number | null;
}): Promise<ImportReport> {
  const body = new FormData();
  body.append('file', file);
  return parseData(
    ImportReportSchema,
    await api.post(EP.roiImport, body, {
      query: {
        dev_id: devId,
        as,
        format,
        progress_id: progressId,
        ...(pixelSizeUm == null ? {} : { pixel_size_um: pixelSizeUm }),
      },
      transfer: true,
    }),
  );
}

export function useImportZip() {
  return useIdentifyMutation(importZip);
}

/** GET /roi/import-progress: how far the named import is (silent: until the server has begun, there is none yet). */
export async function getImportProgress(progressId: string, signal?: AbortSignal): Promise<ImportProgress> {
  return parseData(
    ImportProgressSchema,
    await api.get(EP.roiImportProgress, { query: { progress_id: progressId }, signal, silent: true }),
    { silent: true },
  );
}

/** The named import's progress, asked about every second while `running`. */
export function useImportProgress(progressId: string | null, running: boolean) {
  return useQuery({
    queryKey: ['identify', 'import-progress', progressId],
    queryFn: ({ signal }) => getImportProgress(progressId!, signal),
    enabled: progressId !== null && running,
    retry: false,
    staleTime: 0,
    refetchInterval: running ? 1_000 : false,
  });
}

/** A fresh name for an import's progress (getRandomValues: randomUUID needs HTTPS, a console on a LAN may not have it). */
export const newProgressId = () =>
  `import-${Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/** How far along an import is, 0–100, from its phase: the upload is the first half, the import the second. */
export function importPercent(p: ImportProgress | undefined): number {
  if (!p) return 0;
  const part = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  if (p.phase === 'upload') return Math.round(part * 45);
  if (p.phase === 'unpack') return 48;
  if (p.phase === 'import') return Math.round(50 + part * 50);
  return 100;
}

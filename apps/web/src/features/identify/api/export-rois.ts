import type { ExportBody } from '@ipp/contracts';
import { downloadFile, type DownloadedFile, type DownloadProgress } from '@/api/download-file';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi/export: the selection (roi_ids) or the whole list query, streamed as CSV or an EcoTaxa zip. */
export function exportRois(
  body: ExportBody,
  options: { onProgress?: (progress: DownloadProgress) => void; signal?: AbortSignal } = {},
): Promise<DownloadedFile> {
  return downloadFile(EP.roiExport, { body, ...options });
}

import type { Period } from '@ipp/contracts';
import { downloadFile, type DownloadedFile, type DownloadProgress } from '@/api/download-file';
import { siteQuery } from './get-site-roi';
import * as EP from '@ipp/contracts/endpoints';

/** GET /roi/export-site-data: the period's data of one station as CSV, streamed with its progress. */
export function exportSiteData(
  devId: string,
  period: Period,
  options: { onProgress?: (progress: DownloadProgress) => void; signal?: AbortSignal } = {},
): Promise<DownloadedFile> {
  return downloadFile(EP.roiExportSiteData, { query: siteQuery(devId, period), ...options });
}

import type { AlarmExportQuery } from '@ipp/contracts';
import { downloadFile, type DownloadedFile } from '@/api/download-file';
import * as EP from '@ipp/contracts/endpoints';

/** GET /alarm/export: the team's alarm history of a period as CSV; failures reach the caller (`silent`) for the form. */
export function exportAlarms(query: AlarmExportQuery, options: { signal?: AbortSignal } = {}): Promise<DownloadedFile> {
  return downloadFile(EP.alarmExport, { query: { ...query }, silent: true, ...options });
}

import type { Period } from '@ipp/contracts';
import dayjs from 'dayjs';
import type { DownloadProgress } from '@/api/download-file';

/** A name that says what the file holds when the server sends none. */
export function exportFilename(devId: string, period: Period, now: number = Date.now()): string {
  return `${devId}-${period}-${dayjs(now).format('YYYYMMDD-HHmmss')}.csv`;
}

/** Progress in percent, or null while the size is unknown. */
export function progressPercent(progress: DownloadProgress): number | null {
  if (!progress.total) return null;
  return Math.min(100, Math.floor((progress.loaded / progress.total) * 100));
}

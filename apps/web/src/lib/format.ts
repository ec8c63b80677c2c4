import dayjs from 'dayjs';

/** Epoch milliseconds as local date and time; '—' for none. */
export function formatTime(ms: number | null | undefined): string {
  return ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '—';
}

/** Addresses of the monitoring screens, for links between them. */
export const STATION_PREVIEW_PATH = '/ipp/ipp-view';
export const STATION_DETAIL_PATH = '/ipp/ipp-view-detail';
export const IMAGE_DETAIL_PATH = '/ipp/ipp-image-detail';

export const stationPreviewPath = (ippId: number) => `${STATION_PREVIEW_PATH}?id=${ippId}`;
export const stationDetailPath = (ippId: number) => `${STATION_DETAIL_PATH}?id=${ippId}`;
export const imageDetailPath = (roiId: number) => `${IMAGE_DETAIL_PATH}?id=${roiId}`;

/** A positive whole id from the address, else null. */
export function parseIdParam(raw: string | null): number | null {
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

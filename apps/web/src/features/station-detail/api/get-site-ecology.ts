import { SiteEcologySchema, type Period, type SiteEcology } from '@ipp/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { downloadFile, type DownloadedFile } from '@/api/download-file';
import { viewsQueryKey } from '@/api/query-keys';
import { siteQuery } from './get-site-roi';
import * as EP from '@ipp/contracts/endpoints';

/** The period's query plus the selected classes (class ids, 0 = not classified; none = every class). */
export function ecologyQuery(devId: string, period: Period, classes: readonly number[]) {
  return { ...siteQuery(devId, period), ...(classes.length > 0 ? { classes: classes.join(',') } : {}) };
}

/** GET /ecology/get-site-ecology: concentration, biovolume concentration and NBSS of a class selection. */
export async function getSiteEcology(
  devId: string,
  period: Period,
  classes: readonly number[],
  options: { signal?: AbortSignal } = {},
): Promise<SiteEcology> {
  const data = await api.get(EP.ecologyGetSiteEcology, {
    query: ecologyQuery(devId, period, classes),
    signal: options.signal,
    transfer: true,
  });
  return parseData(SiteEcologySchema, data);
}

export function useSiteEcology(devId: string | undefined, period: Period, classes: readonly number[]) {
  return useQuery({
    queryKey: [...viewsQueryKey, 'site-ecology', devId, period, classes.join(',')],
    queryFn: ({ signal }) => getSiteEcology(devId ?? '', period, classes, { signal }),
    enabled: devId !== undefined,
    // A new selection keeps the charts of the last one on screen until its answer arrives.
    placeholderData: keepPreviousData,
  });
}

/** GET /ecology/export-site-ecology: the series (one row per interval) or the NBSS (one row per size class) as CSV. */
export function exportSiteEcology(
  devId: string,
  period: Period,
  classes: readonly number[],
  table: 'series' | 'nbss',
): Promise<DownloadedFile> {
  return downloadFile(EP.ecologyExportSiteEcology, { query: { ...ecologyQuery(devId, period, classes), table } });
}

import { ImportReportSchema, type ImportReport } from '@ipp/contracts';
import { api, parseData } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';

/** Server limit of POST /roi/import, checked here too so nobody uploads half a gigabyte for a refusal. */
export const IMPORT_ZIP_MAX = 512 * 1024 * 1024;

/** POST /roi/import: a zip of one folder of images per class, as HI images of a station (administrators). */
export async function importZip({
  file,
  devId,
  as,
}: {
  file: File;
  devId: string;
  as: 'hi' | 'reference';
}): Promise<ImportReport> {
  const body = new FormData();
  body.append('file', file);
  return parseData(
    ImportReportSchema,
    await api.post<unknown>('/roi/import', body, { query: { dev_id: devId, as }, transfer: true }),
  );
}

export function useImportZip() {
  return useIdentifyMutation(importZip);
}

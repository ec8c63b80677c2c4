import { ClassItemSchema, type ClassItem } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, parseData } from '@/api/client';

const ClassListSchema = ClassItemSchema.array();

/** The classes list does not change with the images, so it lives outside the identify key. */
export const classesKey = (language: string) => ['classes', language] as const;

/**
 * GET /tool/sys-init: the classes, localized and sorted by title, each with its taxon as the caller's team maps it
 * (HI targets, filters, re-identification, the taxon beside a class name).
 */
export async function getClasses(language: string, options: { signal?: AbortSignal } = {}): Promise<ClassItem[]> {
  const data = await api.get<unknown>('/tool/sys-init', { query: { language, sort: 'title' }, signal: options.signal });
  return parseData(ClassListSchema, data);
}

export function useClasses() {
  const { i18n } = useTranslation();
  const language = i18n.language === 'en' ? 'en' : 'zh';
  return useQuery({
    queryKey: classesKey(language),
    queryFn: ({ signal }) => getClasses(language, { signal }),
    staleTime: 5 * 60_000,
  });
}

/** The taxon of a class as the caller's team maps it (null: none, or the class list is not here yet). */
export function useClassTaxon(classId: number | null): ClassItem['taxon'] {
  const classes = useClasses();
  if (classId === null) return null;
  return classes.data?.find((c) => c.id === classId)?.taxon ?? null;
}

import { ClassItemSchema, type ClassItem } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, parseData } from '@/api/client';
import { classesKey } from './keys';

const ClassListSchema = ClassItemSchema.array();

/** GET /tool/sys-init: the classes, localized and sorted by title (HI targets, filters, re-identification). */
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

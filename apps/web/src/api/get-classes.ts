import { ClassItemSchema, type ClassItem } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, parseData } from '@/api/client';
import * as EP from '@ipp/contracts/endpoints';

const ClassListSchema = ClassItemSchema.array();

/** The classes list does not change with the images, so it lives outside the identify key. */
export const classesKey = (language: string) => ['classes', language] as const;

/**
 * GET /tool/sys-init: the classes, localized and sorted by title, each with its taxon as the caller's team maps it
 * (HI targets, filters, re-identification, the taxon beside a class name).
 */
export async function getClasses(language: string, options: { signal?: AbortSignal } = {}): Promise<ClassItem[]> {
  const data = await api.get(EP.toolSysInit, { query: { language, sort: 'title' }, signal: options.signal });
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

/**
 * GET /tool/sys-init as one team sees it (its administrators' view: every class, `visible` for the team's plain users,
 * `taxon` as the team maps it); the superadmin names the team. Under the classes key, so a class change refreshes it.
 */
export function useTeamClasses(groupId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: ['classes', 'team', groupId ?? null] as const,
    queryFn: async ({ signal }) =>
      parseData(
        ClassListSchema,
        await api.get(EP.toolSysInit, {
          query: { sort: 'title', ...(groupId === undefined ? {} : { group_id: groupId }) },
          signal,
        }),
      ),
    enabled,
  });
}

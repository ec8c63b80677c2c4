import { TeamSchema, type Team, type TeamIndexQuery } from '@ipp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getPage, type Page } from './get-page';
import * as EP from '@ipp/contracts/endpoints';

// The team page lists these and the user form picks a team (with its head counts) from them.
export const teamsQueryKey = ['teams'] as const;

/** Largest page the server gives; enough for every team in a pick list. */
export const ALL_TEAMS: Partial<TeamIndexQuery> = { page: 1, limit: 1000 };

const TeamListSchema = TeamSchema.array();

export function getTeams(query: Partial<TeamIndexQuery>, options: { signal?: AbortSignal } = {}): Promise<Page<Team>> {
  return getPage(EP.groupIndex, TeamListSchema, query, options);
}

export function teamsQueryOptions(query: Partial<TeamIndexQuery>) {
  return queryOptions({
    queryKey: [...teamsQueryKey, query],
    queryFn: ({ signal }) => getTeams(query, { signal }),
    // Paging and searching keep the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useTeams(query: Partial<TeamIndexQuery>, options: { enabled?: boolean } = {}) {
  return useQuery({ ...teamsQueryOptions(query), enabled: options.enabled ?? true });
}

import { TeamSchema, type Team, type TeamSaveBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { teamsQueryKey } from '@/api/get-teams';
import { usersQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

/** Create (no id) or rename (with id); the form reports failures itself. */
export async function saveTeam(body: TeamSaveBody): Promise<Team> {
  return parseData(TeamSchema, await api.post(EP.groupSave, body, { silent: true }), { silent: true });
}

export function useSaveTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTeam,
    onSuccess: async () => {
      // User lists show the team name.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: teamsQueryKey }),
        queryClient.invalidateQueries({ queryKey: usersQueryKey }),
      ]);
    },
  });
}

import { FavoriteBodySchema, type FavoriteBody, type RoiDetails } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { viewsQueryKey } from '@/api/query-keys';
import { roiDetailsKey } from './get-roi-details';
import * as EP from '@ipp/contracts/endpoints';

const FavoriteResultSchema = FavoriteBodySchema.pick({ favorite: true });

/** POST /roi/set-favorite: marks or unmarks an image as a favourite (the overview's wall). */
export async function setFavorite(body: FavoriteBody): Promise<boolean> {
  return parseData(FavoriteResultSchema, await api.post(EP.roiSetFavorite, body)).favorite;
}

export function useSetFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setFavorite,
    onSuccess: (favorite, { roi_id }) => {
      queryClient.setQueryData<RoiDetails>(roiDetailsKey(roi_id), (details) =>
        details ? { ...details, roi: { ...details.roi, favorite } } : details,
      );
      // The wall and the galleries show the mark.
      void queryClient.invalidateQueries({ queryKey: viewsQueryKey });
    },
  });
}

import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';
import { parseIdParam } from '@/lib/monitor-paths';

/**
 * The station a monitoring page shows: `?id=` of its address, else the first station. The choice is kept in
 * state too, because a kept-alive page keeps rendering while another page (with another query) is shown.
 */
export function useStationParam(ownPath: string) {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const fromUrl = pathname === ownPath ? parseIdParam(params.get('id')) : null;
  const [chosen, setChosen] = useState<number | null>(fromUrl);
  // A link to this page with another station (while it is showing) changes the choice.
  if (fromUrl !== null && fromUrl !== chosen) setChosen(fromUrl);

  const ipps = useIpps({ page: 1, limit: ALL_IPPS_LIMIT });
  const stations = ipps.data?.items ?? [];
  const station = chosen === null ? stations[0] : stations.find((candidate) => candidate.id === chosen);

  const select = (id: number) => {
    setChosen(id);
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('id', String(id));
        return next;
      },
      { replace: true },
    );
  };

  return { ipps, stations, station, selectedId: station?.id ?? chosen, select };
}

import { stationTimeZone } from '@ipp/contracts';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';

/** The clock of a station (its IANA zone, else from its longitude), from the cached station list; null until known. */
export function useStationZone(ippId: number | null | undefined): string | null {
  const ipps = useIpps({ limit: ALL_IPPS_LIMIT }, { enabled: ippId !== null && ippId !== undefined });
  const ipp = ipps.data?.items.find((item) => item.id === ippId);
  return ipp ? stationTimeZone(ipp) : null;
}

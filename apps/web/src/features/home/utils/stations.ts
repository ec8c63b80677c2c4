import type { Roi24 } from '@ipp/contracts';

/** Ids of the stations the user follows, in their order (the overview's Roi24 lists them first). */
export function followedIds(roi24: Roi24 | undefined): number[] {
  return roi24?.stations.filter((station) => station.followed).map((station) => station.id) ?? [];
}

/** Followed stations first, in the order followed; the others keep their order. */
export function followedFirst<T extends { id: number }>(stations: readonly T[], followed: readonly number[]): T[] {
  const byId = new Map(stations.map((station) => [station.id, station]));
  const first = followed.flatMap((id) => byId.get(id) ?? []);
  const followedSet = new Set(followed);
  return [...first, ...stations.filter((station) => !followedSet.has(station.id))];
}

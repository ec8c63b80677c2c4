import { useMatches } from 'react-router';
import type { AppRoute } from './routes';

/** The main-layout route being shown, from the `handle` each route object carries. */
export function useCurrentRoute(): AppRoute | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle as AppRoute | undefined;
    if (handle?.path) return handle;
  }
  return undefined;
}

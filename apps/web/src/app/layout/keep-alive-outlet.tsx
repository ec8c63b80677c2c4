import { Activity, useState, type ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { ScrollPane } from './scroll-pane';

interface KeepAliveOutletProps {
  /** Path of the route being shown when it is a keep-alive route, else null. */
  activeKeptPath: string | null;
  /** The element of each keep-alive route, by path. */
  kept: ReadonlyMap<string, ReactNode>;
}

/**
 * Keep-alive routes stay mounted under <Activity mode="hidden"> once visited, so their state
 * survives navigation; every other route renders through the router's outlet as usual.
 */
export function KeepAliveOutlet({ activeKeptPath, kept }: KeepAliveOutletProps) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const [visited, setVisited] = useState<readonly string[]>([]);
  // Recording a first visit during render (not in an effect) avoids one blank frame.
  if (activeKeptPath && !visited.includes(activeKeptPath)) setVisited([...visited, activeKeptPath]);

  return (
    <>
      {[...kept]
        .filter(([path]) => path === activeKeptPath || visited.includes(path))
        .map(([path, element]) => (
          <Activity key={path} mode={path === activeKeptPath ? 'visible' : 'hidden'}>
            <ScrollPane>{element}</ScrollPane>
          </Activity>
        ))}
      {activeKeptPath === null && <ScrollPane key={pathname}>{outlet}</ScrollPane>}
    </>
  );
}

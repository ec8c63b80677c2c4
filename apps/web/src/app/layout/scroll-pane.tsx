import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * Each page scrolls in its own pane. A hidden keep-alive page loses its scroll offset while
 * display:none, so the pane remembers it and puts it back when the page is shown again.
 */
export function ScrollPane({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const offset = useRef(0);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.scrollTop = offset.current;
    const remember = () => {
      offset.current = element.scrollTop;
    };
    element.addEventListener('scroll', remember, { passive: true });
    return () => element.removeEventListener('scroll', remember);
  }, []);

  return (
    <div ref={ref} className="page-pane">
      {children}
    </div>
  );
}

import { useEffect, useRef, useState, type DependencyList } from 'react';
import { loadWithRetry } from '@/lib/lazy-with-retry';

/** One download of a lazily loaded module for the whole session; after a failure the next call tries again. */
export function onceLoader<M>(load: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | null = null;
  return () => {
    loading ??= loadWithRetry(load).catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}

/** What a widget made from the lazily loaded module must offer. */
export interface WidgetInstance {
  resize(): void;
  destroy(): void;
}

/**
 * Mounts a widget (chart, map) whose code loads on first use: creates it in `container` once the module is
 * there, follows the container's size, and destroys it on unmount or when `deps` change. `version` increases
 * with every new instance, so effects that configure it run again; `retry` tries a failed load again.
 */
export function useLazyWidget<M, W extends WidgetInstance>(
  load: () => Promise<M>,
  create: (module: M, element: HTMLDivElement) => W,
  deps: DependencyList,
) {
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<W | null>(null);
  const [version, setVersion] = useState(0);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    let observer: ResizeObserver | undefined;
    let created: W | undefined;
    load().then(
      (module) => {
        const element = container.current;
        if (cancelled || !element) return;
        created = create(module, element);
        widget.current = created;
        observer = new ResizeObserver(() => created?.resize());
        observer.observe(element);
        setVersion((n) => n + 1);
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      observer?.disconnect();
      created?.destroy();
      widget.current = null;
    };
    // `load` and `create` are module-level or stable by contract; the caller's deps decide when to rebuild.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, attempt]);

  const retry = () => {
    setFailed(false);
    setAttempt((n) => n + 1);
  };
  return { container, widget, version, failed, retry };
}

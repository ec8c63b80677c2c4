import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { ErrorBoundary } from './error-boundary';

/**
 * A component whose code is loaded the first time it renders: for the antd components the sign-in page and the shell
 * show only now and then (an error, a demo session), so their code stays out of the start-up bundle. `Plain` stands
 * in while it loads, and for good if it cannot be loaded.
 */
export function onDemand<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  Plain: (props: P) => ReactNode,
): (props: P) => ReactNode {
  const Loaded = lazy(load);
  return function OnDemand(props: P) {
    const plain = <Plain {...props} />;
    return (
      <ErrorBoundary fallback={() => plain}>
        <Suspense fallback={plain}>
          <Loaded {...props} />
        </Suspense>
      </ErrorBoundary>
    );
  };
}

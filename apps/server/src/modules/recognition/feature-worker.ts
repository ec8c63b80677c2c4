import { parentPort } from 'node:worker_threads';
import { measureImage, type MeasureTask } from './feature-pool.ts';
import { backbone, releaseBackbone } from './vector.ts';

const inFlight = new Set<Promise<unknown>>();
let exiting = false;

// Feature extraction off the server's event loop (feature-pool.ts): one task in, its measurement out; `{ warm }` loads
// the network ahead of the first task. `{ exit }`
// answers every task already received, releases the network and ends the thread (FeaturePool.close).
parentPort!.on('message', (task: (MeasureTask & { id: number }) | { id: number; warm: true } | { exit: number }) => {
  if (exiting) return; // the pool fails what it sent after the exit when the thread ends
  if ('exit' in task) {
    exiting = true;
    void Promise.allSettled([...inFlight])
      .then(() => releaseBackbone())
      .finally(() => process.exit(task.exit));
    return;
  }
  if ('warm' in task) {
    // FeaturePool.warm: load the network now rather than under the first image.
    void backbone().then(
      () => parentPort!.postMessage({ id: task.id, warmed: true }),
      (err: unknown) => parentPort!.postMessage({ id: task.id, error: err instanceof Error ? err.message : String(err) }),
    );
    return;
  }
  const done = measureImage(task.image, task.threshold).then(
    (result) => parentPort!.postMessage({ id: task.id, result }),
    (err: unknown) => parentPort!.postMessage({ id: task.id, error: err instanceof Error ? err.message : String(err) }),
  );
  inFlight.add(done);
  void done.finally(() => inFlight.delete(done));
});

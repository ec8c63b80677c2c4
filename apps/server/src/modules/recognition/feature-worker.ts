import { parentPort } from 'node:worker_threads';
import { measureImage, type MeasureTask } from './feature-pool.ts';

// Feature extraction off the server's event loop (feature-pool.ts): one task in, its measurement out.
parentPort!.on('message', (task: MeasureTask & { id: number }) => {
  try {
    const result = measureImage(task.image, task.threshold);
    parentPort!.postMessage({ id: task.id, result });
  } catch (err) {
    parentPort!.postMessage({ id: task.id, error: err instanceof Error ? err.message : String(err) });
  }
});

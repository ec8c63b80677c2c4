// The feature workers' entry: plain JavaScript, so it starts under any loader (the server runs TypeScript through
// tsx; a worker thread does not always inherit that), then it loads the TypeScript worker through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./feature-worker.ts');

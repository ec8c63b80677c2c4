import { parentPort, workerData } from 'node:worker_threads';
import { trainAndEvaluate, type TrainInput } from './training.ts';

// Training off the server's event loop: progress messages, then the result.
const result = trainAndEvaluate(workerData as TrainInput, (progress) => parentPort!.postMessage({ progress }));
parentPort!.postMessage({ result });

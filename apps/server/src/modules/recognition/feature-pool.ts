import { Worker } from 'node:worker_threads';
import { descriptorOf } from './descriptor.ts';
import type { RawImage, RoiFeatures } from './features.ts';
import { vectorOf } from './vector.ts';

export interface MeasureTask {
  image: RawImage;
  threshold: number | undefined;
}

export interface Measurement {
  features: RoiFeatures;
  sim: Int8Array;
}

/**
 * The CPU-bound part of recognition at ingest: the recognition vector of decoded pixels (measured features and the
 * backbone's embedding) and its similarity descriptor.
 */
export async function measureImage(image: RawImage, threshold: number | undefined): Promise<Measurement> {
  const features = await vectorOf(image, { threshold });
  return { features, sim: descriptorOf(features.values) };
}

const CLOSE_GRACE_MS = 5_000;

interface Pending {
  resolve: (m: Measurement | null) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Feature extraction in worker threads (FEATURE_WORKERS, docs/decisions.md): about 9 ms of JavaScript per image that
 * would otherwise block the event loop while other requests' PostgreSQL transactions wait on it. The server starts
 * them all with `warm()` before it listens (a task starts a missing one); each task goes to the worker with the
 * fewest in flight; a worker that dies fails only its own tasks and is replaced on the next task. Size 0 measures on
 * the calling thread.
 */
export class FeaturePool {
  private readonly slots: (Slot | null)[];
  private nextId = 1;
  private closed = false;

  constructor(readonly size: number) {
    this.slots = Array.from({ length: size }, () => null);
  }

  measure(image: RawImage, threshold: number | undefined): Promise<Measurement> {
    if (this.size === 0) return measureImage(image, threshold);
    if (this.closed) return Promise.reject(new Error('feature pool closed'));
    const slot = this.pick();
    // A copy of the pixels, moved rather than cloned: the caller's buffer may be a view into a larger one.
    const data = image.data.slice();
    return this.send(slot, (id) => ({ id, image: { ...image, data }, threshold }), [data.buffer]) as Promise<Measurement>;
  }

  /**
   * Starts every worker and has it load the network, answering when all are ready (or one failed, which the next
   * image retries as it would anyway). A worker starting cold takes about a second (the network's session), which
   * otherwise falls on the first images after every server start.
   */
  async warm(): Promise<void> {
    if (this.size === 0 || this.closed) return;
    for (let i = 0; i < this.slots.length; i++) this.slots[i] ??= this.spawn(i);
    await Promise.all(
      this.slots.map((slot) => (slot ? this.send(slot, (id) => ({ id, warm: true }), []).catch(() => null) : null)),
    );
  }

  private send(slot: Slot, task: (id: number) => object, transfer: ArrayBuffer[]): Promise<Measurement | null> {
    const id = this.nextId++;
    return new Promise<Measurement | null>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage(task(id), transfer);
    });
  }

  /**
   * Asks each worker to finish the tasks it has, release the network and exit; one that has not exited within
   * CLOSE_GRACE_MS is terminated. Terminating a worker while onnxruntime runs in it aborts the whole process
   * (a native exception with no JavaScript left to catch it), so terminate is the last resort.
   */
  async close() {
    this.closed = true;
    await Promise.all(
      this.slots.map(async (s) => {
        if (!s) return;
        const exited = new Promise<void>((resolve) => s.worker.once('exit', () => resolve()));
        s.worker.postMessage({ exit: 0 });
        const timer = setTimeout(() => void s.worker.terminate(), CLOSE_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  private pick(): Slot {
    let best = -1;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (!slot) return (this.slots[i] = this.spawn(i));
      if (best < 0 || slot.pending.size < this.slots[best]!.pending.size) best = i;
    }
    return this.slots[best]!;
  }

  private spawn(index: number): Slot {
    const worker = new Worker(new URL('./feature-worker.mjs', import.meta.url));
    worker.unref();
    const slot: Slot = { worker, pending: new Map() };
    const fail = (err: Error) => {
      if (this.slots[index] === slot) this.slots[index] = null;
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
    };
    worker.on('message', (m: { id: number; result?: Measurement; warmed?: true; error?: string }) => {
      const p = slot.pending.get(m.id);
      if (!p) return;
      slot.pending.delete(m.id);
      if (m.result) p.resolve(m.result);
      else if (m.warmed) p.resolve(null);
      else p.reject(new Error(m.error ?? 'feature worker failed'));
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`feature worker exited with code ${code}`)));
    return slot;
  }
}

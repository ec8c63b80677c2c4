/**
 * The instruments of the ingest benchmarks: concurrent closed-loop uploaders posting real PWSSC images (each a distinct
 * variant, so each is stored) to POST /api/device/rois of one or several servers, instrument i always to the same one.
 */
import { deviceKeyOf } from './generate.ts';
import { loadImages, roiMultipart, variant } from './images.ts';
import { envelope, percentile, request } from './server-process.ts';

export async function ingestImages() {
  const { images, source } = await loadImages();
  let copy = 0;
  const nextImage = (station: number) => variant(images[copy % images.length]!, station * 10_000_000 + ++copy);
  return { nextImage, source };
}

export interface IngestPhase {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** `instruments` uploaders for `seconds`; instrument i (station i + 1) posts to urls[i % urls.length]. */
export async function ingestPhase(
  urls: string[],
  instruments: number,
  seconds: number,
  nextImage: (station: number) => Buffer,
): Promise<IngestPhase> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  const times: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: instruments }, async (_, i) => {
      const url = urls[i % urls.length]!;
      while (Date.now() < until) {
        const form = roiMultipart({ captured_at: Date.now() - 1000, label_index: 0, size_px: 1000 }, nextImage(i + 1));
        const t0 = performance.now();
        const answer = await request(`${url}/api/device/rois`, {
          method: 'POST',
          headers: { 'x-device-key': deviceKeyOf(i + 1), 'content-type': form.contentType },
          body: form.body,
        });
        times.push(performance.now() - t0);
        if (answer.status === 200 && envelope<{ stored: boolean }>(answer).code === 1000) done++;
        else errors++;
      }
    }),
  );
  return {
    perSecond: done / ((performance.now() - started) / 1000),
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    errors,
  };
}

import { ResultCode } from '@ipp/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import { requireDevice } from '../../http/access.ts';

export interface IngestBounds {
  /** Image uploads the process works on at once, all instruments together (INGEST_IN_FLIGHT). */
  inFlight: number;
  /** Image uploads one instrument may have in progress at once (INGEST_PER_DEVICE). */
  perDevice: number;
}

/** The longest Retry-After the gate asks for: an instrument keeps its images, so a long wait loses nothing but time. */
export const MAX_RETRY_AFTER_S = 30;
/** How far back the acknowledgement rate is measured for the Retry-After estimate. */
const RATE_WINDOW_MS = 10_000;

/**
 * Admission of instrument image uploads (issue 39, docs/device-protocol.md "Back-pressure"). An upload is counted from
 * the moment its device key is checked, before its body is read, until its answer is out or its client has gone.
 *
 * - The process already works on `inFlight` uploads: **503**, code 1003, `Retry-After` = the seconds the uploads in
 *   progress take to drain at the rate answers went out over the last ten seconds (1 to 30).
 * - This instrument already has `perDevice` uploads in progress: **429**, code 1003, `Retry-After: 1`. One instrument
 *   that sends in parallel cannot take the places the rest of the fleet needs.
 *
 * Refused uploads were not read, stored or recognised: nothing of them is kept, and the same image sent again after
 * the wait is an ordinary upload. Without the bound a saturated server only answered slower and slower, holding every
 * body and its decoded pixels in memory until requests passed their deadline.
 */
export class IngestGate {
  private nextId = 0;
  /** When each upload in progress was admitted, oldest first. */
  private readonly started = new Map<number, number>();
  private readonly perDevice = new Map<number, number>();
  /** Answer times of the last RATE_WINDOW_MS, oldest first. */
  private readonly answered: number[] = [];

  constructor(
    private readonly bounds: IngestBounds,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Uploads in progress now. */
  get inProgress() {
    return this.started.size;
  }

  /** Takes a place for one upload of `deviceId`, or throws the 503/429 refusal; the release frees it (once). */
  enter(deviceId: number): () => void {
    const mine = this.perDevice.get(deviceId) ?? 0;
    if (mine >= this.bounds.perDevice)
      throw new AppError(ResultCode.THROTTLED, 'tooManyUploads', { max: this.bounds.perDevice, seconds: 1 }, undefined, 429);
    if (this.started.size >= this.bounds.inFlight)
      throw new AppError(ResultCode.THROTTLED, 'ingestBusy', { seconds: this.retryAfterSeconds() }, undefined, 503);
    this.perDevice.set(deviceId, mine + 1);
    const id = this.nextId++;
    this.started.set(id, this.now());
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.started.delete(id);
      const left = (this.perDevice.get(deviceId) ?? 1) - 1;
      if (left > 0) this.perDevice.set(deviceId, left);
      else this.perDevice.delete(deviceId);
      this.answered.push(this.now());
      this.forgetOld();
    };
  }

  /**
   * Seconds until the uploads in progress have drained at the recent answer rate, 1 to MAX_RETRY_AFTER_S. With no
   * answer in the last ten seconds (the server was idle until this burst, or its work is stuck) it is as long as the
   * oldest upload in progress has waited: a burst on an idle server is told one second, a stuck server ever longer.
   */
  retryAfterSeconds(): number {
    this.forgetOld();
    const now = this.now();
    let seconds: number;
    if (this.answered.length === 0) {
      const oldest = this.started.values().next().value ?? now;
      seconds = Math.ceil((now - oldest) / 1000);
    } else {
      const perSecond = (this.answered.length / Math.max(1000, now - this.answered[0]!)) * 1000;
      seconds = Math.ceil(this.started.size / perSecond);
    }
    return Math.min(MAX_RETRY_AFTER_S, Math.max(1, seconds));
  }

  private forgetOld() {
    const since = this.now() - RATE_WINDOW_MS;
    let drop = 0;
    while (drop < this.answered.length && this.answered[drop]! < since) drop++;
    if (drop > 0) this.answered.splice(0, drop);
  }

  /**
   * The route's onRequest hook (it runs after the device key was checked): admits the upload or refuses it before its
   * body is read. The place is freed when the answer is out or the client has gone, but never while the handler still
   * works on the upload (`work`): a client that gives up under load does not free a place its upload still uses.
   */
  readonly admit = async (request: FastifyRequest, reply: FastifyReply) => {
    const place: Admitted = { release: this.enter(requireDevice(request).id), working: false };
    (request as AdmittedRequest)[kAdmitted] = place;
    const gone = () => {
      if (!place.working) place.release();
    };
    reply.raw.once('close', gone);
    if (reply.raw.destroyed) gone();
  };

  /** Runs the handler's work on an admitted upload; its place is freed when the work ends (also when it fails). */
  async work<T>(request: FastifyRequest, fn: () => Promise<T>): Promise<T> {
    const place = (request as AdmittedRequest)[kAdmitted];
    if (place) place.working = true;
    try {
      return await fn();
    } finally {
      place?.release();
    }
  }
}

const kAdmitted = Symbol('ingest place');
interface Admitted {
  release: () => void;
  working: boolean;
}
type AdmittedRequest = FastifyRequest & { [kAdmitted]?: Admitted };

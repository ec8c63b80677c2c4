/** What the fleet soak measured (soak-run.ts), and the report as lines for a terminal and docs/benchmarks.md. */
import type { SoakOptions } from './soak-run.ts';

export interface SoakReport {
  options: Omit<SoakOptions, 'log'>;
  /** Images the instruments captured and kept to send (after their size filter). */
  captured: number;
  /** Acknowledged as stored (`stored: true`) and as already stored (a retry whose first answer was lost). */
  acknowledged: number;
  duplicates: number;
  /** Images given up by an instrument (refused for good or pushed out of a full backlog): must be 0. */
  givenUp: number;
  /** ROI rows of the fleet received during the soak. */
  stored: number;
  /** Captured but not stored: must be 0. */
  lost: number;
  /** Upload answers 429/503 with Retry-After. */
  throttled: number;
  telemetry: number;
  telemetryFailures: number;
  /** Seconds of the run (capturing) and of the drain after it. */
  runS: number;
  drainS: number;
  drained: boolean;
  /** The fleet's backlog: the largest seen, and each outage's backlog when its link came back with the seconds to drain. */
  backlogPeak: number;
  outages: { devices: number; backlogAtReturn: number; drainS: number | null }[];
  /** Console calls through the proxy. */
  pages: {
    calls: number;
    errors: number;
    p50: number;
    p95: number;
    max: number;
    byKind: Record<string, { n: number; p95: number }>;
  };
  /** Instruments offline longer than the threshold, and how many of them got an offline alarm. */
  offlineLongEnough: number;
  alarmed: number;
  /** Offline alarms raised on instruments that were not taken offline (false alarms). */
  falseAlarms: number;
  /** Resident memory of each server process, MB, after the warm-up and at the end; and the JavaScript heap. */
  memory: { rssStart: number; rssEnd: number; heapStart: number | null; heapEnd: number | null }[];
  /** ROIs acknowledged per second over the run and the drain after it. */
  ackPerSecond: number;
}

/** The report as lines for a terminal and docs/benchmarks.md. */
export function describeSoak(r: SoakReport): string[] {
  const o = r.options;
  const mb = (n: number | null) => (n === null ? '?' : n.toFixed(0));
  return [
    `${o.devices} instruments, ${o.totalRate} ROIs/s captured before the size filter, telemetry every ${o.telemetryIntervalS} s, ` +
      `${o.seconds} s; outages of ${Math.round(o.outageShare * 100)}% of the fleet for ${o.outageS} s every ${o.outageEveryS} s from ${o.firstOutageAtS} s; ` +
      `${o.users} console users; 2 server processes, PostgreSQL, s3rver, nginx`,
    `images: ${r.captured} captured, ${r.acknowledged} acknowledged (+${r.duplicates} already stored), ${r.stored} stored, ` +
      `${r.lost} lost, ${r.givenUp} given up; ${r.throttled} answers said retry later; ${r.ackPerSecond.toFixed(1)} acknowledged/s`,
    `backlog: peak ${r.backlogPeak}; ${r.drained ? `drained in ${r.drainS.toFixed(1)} s after the run` : `NOT drained after ${r.drainS.toFixed(0)} s`}; ` +
      `outages: ${r.outages.map((x) => `${x.devices} devices, ${x.backlogAtReturn} kept, drained in ${x.drainS === null ? '—' : `${x.drainS.toFixed(1)} s`}`).join('; ')}`,
    `telemetry: ${r.telemetry} acknowledged, ${r.telemetryFailures} failed`,
    `console through nginx: ${r.pages.calls} calls, ${r.pages.errors} errors, p50 ${r.pages.p50.toFixed(0)} ms, p95 ${r.pages.p95.toFixed(0)} ms, max ${r.pages.max.toFixed(0)} ms`,
    `  ${Object.entries(r.pages.byKind)
      .map(([k, v]) => `${k} p95 ${v.p95.toFixed(0)} ms (${v.n})`)
      .join(', ')}`,
    `offline alarms: ${r.alarmed} of ${r.offlineLongEnough} instruments offline past the threshold; ${r.falseAlarms} on instruments never taken offline`,
    `memory: ${r.memory.map((m, i) => `process ${i + 1} RSS ${mb(m.rssStart)} → ${mb(m.rssEnd)} MB (heap ${mb(m.heapStart)} → ${mb(m.heapEnd)} MB)`).join('; ')}`,
  ];
}

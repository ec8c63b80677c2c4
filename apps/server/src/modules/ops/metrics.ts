import { monitorEventLoopDelay } from 'node:perf_hooks';
import { API } from '@ipp/contracts';

/** The route pattern of instrument image uploads, as Fastify reports it. */
const INGEST_ROUTE = `/api${API.deviceRois.path}`;

/**
 * The server's own counters for Prometheus (issue 40): requests by route and status, their latencies, ROIs
 * acknowledged and refused. Kept in memory per process (each process is scraped on its own); labels are route
 * patterns, never raw URLs, so the series stay bounded.
 */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labelText = (labels: Record<string, string | number>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}="${escape(String(v))}"`)
    .join(',');

export class Metrics {
  private readonly requests = new Map<string, { labels: Record<string, string | number>; n: number }>();
  private readonly durations = new Map<string, { route: string; h: Histogram }>();
  private readonly ingest = new Map<string, number>();
  private readonly loop = monitorEventLoopDelay({ resolution: 20 });
  readonly startedAt = Date.now();

  constructor() {
    this.loop.enable();
  }

  /** One answered request: its route pattern ('unmatched' for none), method, status and seconds taken. */
  request(route: string, method: string, status: number, seconds: number) {
    const key = `${method} ${route} ${status}`;
    const entry = this.requests.get(key) ?? { labels: { method, route, status }, n: 0 };
    entry.n++;
    this.requests.set(key, entry);
    const timing = this.durations.get(route) ?? { route, h: { counts: BUCKETS.map(() => 0), sum: 0, count: 0 } };
    BUCKETS.forEach((upper, i) => {
      if (seconds <= upper) timing.h.counts[i]!++;
    });
    timing.h.sum += seconds;
    timing.h.count++;
    this.durations.set(route, timing);
    if (route === INGEST_ROUTE) {
      const result = status === 200 ? 'acknowledged' : status === 429 || status === 503 ? 'deferred' : 'refused';
      this.ingest.set(result, (this.ingest.get(result) ?? 0) + 1);
    }
  }

  stop() {
    this.loop.disable();
  }

  /** The exposition text: these counters, then the gauges read at scrape time. */
  render(gauges: { name: string; help: string; samples: { labels?: Record<string, string | number>; value: number }[] }[]) {
    const lines: string[] = [];
    const family = (name: string, type: string, help: string) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    family('ipp_http_requests_total', 'counter', 'HTTP requests answered, by route pattern, method and status.');
    for (const { labels, n } of this.requests.values()) lines.push(`ipp_http_requests_total{${labelText(labels)}} ${n}`);
    family('ipp_http_request_duration_seconds', 'histogram', 'Time to answer, by route pattern.');
    for (const { route, h } of this.durations.values()) {
      BUCKETS.forEach((upper, i) =>
        lines.push(`ipp_http_request_duration_seconds_bucket{${labelText({ route, le: upper })}} ${h.counts[i]}`),
      );
      lines.push(`ipp_http_request_duration_seconds_bucket{${labelText({ route, le: '+Inf' })}} ${h.count}`);
      lines.push(`ipp_http_request_duration_seconds_sum{${labelText({ route })}} ${h.sum}`);
      lines.push(`ipp_http_request_duration_seconds_count{${labelText({ route })}} ${h.count}`);
    }
    family('ipp_ingest_rois_total', 'counter', 'Instrument image uploads: acknowledged, deferred (429/503) or refused.');
    for (const result of ['acknowledged', 'deferred', 'refused'])
      lines.push(`ipp_ingest_rois_total{${labelText({ result })}} ${this.ingest.get(result) ?? 0}`);
    const memory = process.memoryUsage();
    const process_ = [
      { name: 'process_resident_memory_bytes', help: 'Resident memory.', value: memory.rss },
      { name: 'nodejs_heap_used_bytes', help: 'JavaScript heap in use.', value: memory.heapUsed },
      { name: 'process_uptime_seconds', help: 'Seconds since the process started.', value: (Date.now() - this.startedAt) / 1000 },
      {
        name: 'nodejs_eventloop_delay_p99_seconds',
        help: 'Event loop delay, 99th percentile.',
        value: this.loop.percentile(99) / 1e9,
      },
    ];
    for (const p of process_) {
      family(p.name, 'gauge', p.help);
      lines.push(`${p.name} ${p.value}`);
    }
    for (const gauge of gauges) {
      family(gauge.name, 'gauge', gauge.help);
      for (const s of gauge.samples)
        lines.push(s.labels ? `${gauge.name}{${labelText(s.labels)}} ${s.value}` : `${gauge.name} ${s.value}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

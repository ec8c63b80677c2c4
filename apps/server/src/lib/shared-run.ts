/**
 * One run per key at a time: a caller while one is in flight gets that run's answer instead of starting another (a
 * "send test" pressed twice, or by two people at once).
 */
export class SharedRuns<K, T> {
  private readonly running = new Map<K, Promise<T>>();

  run(key: K, start: () => Promise<T>): Promise<T> {
    const current = this.running.get(key);
    if (current) return current;
    const started = start().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }
}

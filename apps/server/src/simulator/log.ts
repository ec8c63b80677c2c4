export type LogSink = (line: string) => void;

/** Console lines with the time of day; repeated problems are printed at most once per window. */
export class SimLog {
  private readonly last = new Map<string, { at: number; held: number }>();

  constructor(
    private readonly sink: LogSink = (line) => console.log(line),
    private readonly now: () => number = Date.now,
  ) {}

  info(line: string) {
    const time = new Date(this.now()).toTimeString().slice(0, 8);
    this.sink(`${time} ${line}`);
  }

  /** Prints `line` unless a line with the same key was printed within `windowMs`; says how many were held back. */
  throttled(key: string, line: string, windowMs = 30_000) {
    const now = this.now();
    const seen = this.last.get(key);
    if (seen && now - seen.at < windowMs) {
      seen.held++;
      return;
    }
    this.info(seen?.held ? `${line} (+${seen.held} similar)` : line);
    this.last.set(key, { at: now, held: 0 });
  }
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

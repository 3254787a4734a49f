/**
 * A simulator's log of the requests it received, for tests to assert what was sent. It keeps
 * the newest REQUEST_LOG_MAX entries: `npm start` runs the simulators for as long as the service
 * runs, and an unbounded log would grow with every upstream request the service makes.
 */
export const REQUEST_LOG_MAX = 10_000;

/** What {@link RequestLog.track} needs of an answer: its close event. */
interface Closable {
  once(event: 'close', listener: () => void): unknown;
}

export class RequestLog<T> {
  private items: T[] = [];
  private open = 0;
  private peak = 0;

  constructor(private readonly max = REQUEST_LOG_MAX) {}

  /** Appends `entry`, dropping the oldest past the bound. */
  push(entry: T): void {
    this.items.push(entry);
    if (this.items.length > this.max) this.items.splice(0, this.items.length - this.max);
  }

  /** The kept entries, oldest first (a new array each time). */
  entries(): T[] {
    return [...this.items];
  }

  /** Counts a request as in flight until its answer closes (see {@link peakInFlight}). */
  track(res: Closable): void {
    this.open += 1;
    this.peak = Math.max(this.peak, this.open);
    res.once('close', () => {
      this.open -= 1;
    });
  }

  /** The most requests in flight at once since the last {@link clear}: how concurrent a client was. */
  peakInFlight(): number {
    return this.peak;
  }

  clear(): void {
    this.items = [];
    this.peak = this.open;
  }
}

/**
 * A simulator's log of the requests it received, for tests to assert what was sent. It keeps
 * the newest REQUEST_LOG_MAX entries: `npm start` runs the simulators for as long as the service
 * runs, and an unbounded log would grow with every upstream request the service makes.
 */
export const REQUEST_LOG_MAX = 10_000;

export class RequestLog<T> {
  private items: T[] = [];

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

  clear(): void {
    this.items = [];
  }
}

/**
 * A bounded in-memory LRU cache whose budget is bytes, not entries: inserting past the budget
 * evicts the least recently used entries first; a value larger than the whole budget is not kept.
 */
export class ByteLru<V extends { bytes: number }> {
  private readonly entries = new Map<string, V>();
  private used = 0;

  constructor(readonly maxBytes: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Re-insert: Map iteration order is the recency order.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.used -= old.bytes;
    }
    if (value.bytes > this.maxBytes) return;
    this.entries.set(key, value);
    this.used += value.bytes;
    for (const [k, v] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(k);
      this.used -= v.bytes;
    }
  }

  /** Bytes held now. */
  get size(): number {
    return this.used;
  }

  get count(): number {
    return this.entries.size;
  }
}

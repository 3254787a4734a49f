/**
 * Compact JSON with a size bound: the same text as `JSON.stringify` for JSON data, built piece by
 * piece so that serialising stops as soon as the text would pass the bound, before a large
 * string is ever materialised.
 */
import { TemplateBudgetError } from './budget.js';

/** How deep a value may nest when serialised. */
export const MAX_VALUE_DEPTH = 256;

/** Thrown by {@link boundedJson} when the text would pass its bound. */
export class JsonBoundError extends Error {
  constructor() {
    super('The JSON text passes its bound.');
    this.name = 'JsonBoundError';
  }
}

/**
 * Serialises `value` as compact JSON of at most `max` characters; undefined (and anything JSON
 * cannot hold) gives undefined, as `JSON.stringify` does. Throws {@link JsonBoundError} past
 * `max`, and a {@link TemplateBudgetError} for values nested deeper than {@link MAX_VALUE_DEPTH}.
 */
export function boundedJson(value: unknown, max: number): string | undefined {
  const writer = new BoundedWriter(max);
  return writer.value(value, 0) ? writer.parts.join('') : undefined;
}

class BoundedWriter {
  readonly parts: string[] = [];
  private length = 0;

  constructor(private readonly max: number) {}

  private push(text: string): void {
    this.length += text.length;
    if (this.length > this.max) throw new JsonBoundError();
    this.parts.push(text);
  }

  /** Writes one value; false when the value has no JSON form (it is then skipped or null). */
  value(value: unknown, depth: number): boolean {
    switch (typeof value) {
      case 'string':
        // The escaped text is at least the string plus two quotes: refuse before escaping.
        if (this.length + value.length + 2 > this.max) throw new JsonBoundError();
        this.push(JSON.stringify(value));
        return true;
      case 'number':
      case 'boolean':
        this.push(JSON.stringify(value));
        return true;
      case 'object':
        if (value === null) {
          this.push('null');
          return true;
        }
        if (depth >= MAX_VALUE_DEPTH) throw new TemplateBudgetError('depth', MAX_VALUE_DEPTH);
        if (Array.isArray(value)) this.array(value, depth + 1);
        else this.object(value as Record<string, unknown>, depth + 1);
        return true;
      default:
        return false;
    }
  }

  private array(list: readonly unknown[], depth: number): void {
    this.push('[');
    for (let i = 0; i < list.length; i++) {
      if (i > 0) this.push(',');
      if (!this.value(list[i], depth)) this.push('null');
    }
    this.push(']');
  }

  private object(record: Record<string, unknown>, depth: number): void {
    this.push('{');
    let first = true;
    for (const key of Object.keys(record)) {
      const field = record[key];
      if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
      if (this.length + key.length + 4 > this.max) throw new JsonBoundError();
      this.push(first ? JSON.stringify(key) + ':' : ',' + JSON.stringify(key) + ':');
      first = false;
      this.value(field, depth);
    }
    this.push('}');
  }
}

/** Building Temporal visibility queries from values: every value is quoted and escaped. */

/** A search-attribute string literal for a visibility query. */
export function literal(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

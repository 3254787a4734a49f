/**
 * Human labels for schema fields: the schema's `title` when it has one, else the key in words
 * (`max_results` → "Max results", `vinMin` → "Vin min", `tlds` → "TLDs"). Pure, no DOM.
 */

/** Words written in capitals (or their own way) wherever they appear in a key. */
const SPECIAL: Record<string, string> = {
  id: 'ID',
  ids: 'IDs',
  url: 'URL',
  urls: 'URLs',
  tld: 'TLD',
  tlds: 'TLDs',
  api: 'API',
  json: 'JSON',
  sku: 'SKU',
  html: 'HTML',
  svg: 'SVG',
  ac: 'AC',
  dc: 'DC',
  usb: 'USB',
  pcb: 'PCB',
  bom: 'BOM',
};

/** A key in words: split at `_`, `-`, `.` and lower→upper case changes; first word capitalised. */
export function humanise(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  if (words.length === 0) return key;
  return words.map((w, i) => SPECIAL[w] ?? (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}

/** The label of a property: its non-empty `title`, else its humanised name. */
export function labelOf(name: string, title: unknown): string {
  return typeof title === 'string' && title.trim() !== '' ? title.trim() : humanise(name);
}

/** An enum option in words when it is a lower-case code (`in_stock` → "In stock"); other values as they are. */
export function optionLabel(value: string | number): string {
  const text = String(value);
  return /^[a-z][a-z0-9_]*$/.test(text) ? humanise(text) : text;
}

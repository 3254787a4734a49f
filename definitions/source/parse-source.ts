/** Picks the front end for a source text and enforces the source size limit. */
import { LIMITS } from '../limits.js';
import { parseJson } from './parse-json.js';
import { parseYaml } from './parse-yaml.js';
import type { ParsedSource } from './parsed-source.js';
import { SourceMap } from './source-map.js';

/** Source formats; `auto` goes by file extension, then by a leading `{`. */
export type SourceFormat = 'yaml' | 'json' | 'auto';

/** Chooses JSON or YAML for `auto`. */
export function detectFormat(source: string, fileName?: string): 'yaml' | 'json' {
  const lower = fileName?.toLowerCase() ?? '';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  return source.trimStart().startsWith('{') ? 'json' : 'yaml';
}

/** Parses a definition's text in the given (or detected) format. */
export function parseSource(source: string, format: SourceFormat = 'auto', fileName?: string): ParsedSource {
  const bytes = new TextEncoder().encode(source).length;
  if (bytes > LIMITS.maxSourceBytes) {
    const message = `The definition is ${bytes} bytes; the limit is ${LIMITS.maxSourceBytes}.`;
    return {
      value: undefined,
      map: new SourceMap(''),
      diagnostics: [{ code: 'TOO_LARGE', message, path: '', line: 1, column: 1 }],
      fatal: true,
    };
  }
  const chosen = format === 'auto' ? detectFormat(source, fileName) : format;
  return chosen === 'json' ? parseJson(source) : parseYaml(source);
}

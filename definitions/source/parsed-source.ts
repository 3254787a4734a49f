/** The common result of the YAML and JSON front ends. */
import type { Diagnostic } from '../diagnostics.js';
import { LIMITS } from '../limits.js';
import type { SourceMap } from './source-map.js';

/** Plain data with positions, plus the problems found while parsing. */
export interface ParsedSource {
  /** The parsed data; undefined when `fatal`. */
  value: unknown;
  map: SourceMap;
  diagnostics: Diagnostic[];
  /** The text could not be turned into data worth validating further. */
  fatal: boolean;
}

/** The message of every DUPLICATE_KEY diagnostic; the path names the key. */
export const DUPLICATE_KEY_MESSAGE = 'Duplicate key: a key may appear only once in a mapping.';

/** The message of the TOO_LARGE diagnostic of a source nested deeper than the limit. */
export const TOO_DEEP_MESSAGE = `Nesting is deeper than ${LIMITS.maxDepth} levels.`;

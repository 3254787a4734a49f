/**
 * YAML front end: parses with the `yaml` package, rejects what the language does not allow
 * (anchors, aliases, tags, duplicate and complex keys) and records every node's position.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Scalar,
  type ErrorCode,
  type YAMLError,
} from 'yaml';
import { formatPath } from '../../lib/errors/skillflow-error.js';
import type { Diagnostic } from '../diagnostics.js';
import { LIMITS } from '../limits.js';
import { defineField } from '../runtime/lookup.js';
import { DUPLICATE_KEY_MESSAGE, type ParsedSource, TOO_DEEP_MESSAGE } from './parsed-source.js';
import { type DocPath, SourceMap } from './source-map.js';
import { composeBounded } from './yaml-document.js';

/** Parses YAML text into plain data plus positions. */
export function parseYaml(source: string): ParsedSource {
  const map = new SourceMap(source);
  const { doc, limit } = composeBounded(source);
  if (limit) {
    const diagnostic: Diagnostic = {
      code: limit.code,
      message: limit.message,
      path: '',
      ...map.lineColumn(limit.offset),
    };
    return { value: undefined, map, diagnostics: [diagnostic], fatal: true };
  }
  const diagnostics: Diagnostic[] = [];
  let fatal = false;
  for (const error of doc.errors) {
    const at = map.lineColumn(error.pos[0]);
    diagnostics.push({ code: 'YAML_SYNTAX', message: yamlMessage(error), path: '', ...at });
    fatal = true;
  }
  if (fatal) return { value: undefined, map, diagnostics, fatal };
  const walker = new YamlWalker(source, map, diagnostics);
  const value = walker.convert(doc.contents, [], 0, undefined);
  return { value, map, diagnostics, fatal: walker.tooDeep };
}

/**
 * Error codes of the `yaml` package whose messages are fixed text. The others (bad escapes,
 * unknown tags and directives, unexpected tokens) quote the source, so they get a message of our
 * own that names the rule.
 */
const FIXED_TEXT_CODES = new Set<ErrorCode>([
  'ALIAS_PROPS',
  'BAD_ALIAS',
  'BAD_INDENT',
  'BLOCK_AS_IMPLICIT_KEY',
  'BLOCK_IN_FLOW',
  'KEY_OVER_1024_CHARS',
  'MISSING_CHAR',
  'MULTILINE_IMPLICIT_KEY',
  'MULTIPLE_ANCHORS',
  'MULTIPLE_TAGS',
  'TAB_AS_INDENT',
]);
const OWN_MESSAGES: Partial<Record<ErrorCode, string>> = {
  BAD_DQ_ESCAPE: 'Invalid escape sequence in a double-quoted string.',
  BAD_SCALAR_START: 'A plain value cannot start with this character; quote the value.',
  BAD_DIRECTIVE: 'YAML directives (%YAML, %TAG) are not supported.',
  TAG_RESOLVE_FAILED: 'Tags are not allowed.',
  BAD_COLLECTION_TYPE: 'Tags are not allowed.',
  BAD_PROP_ORDER: 'Anchors and tags are not allowed.',
  MULTIPLE_DOCS: 'A definition is one YAML document.',
  UNEXPECTED_TOKEN: 'Unexpected token; check indentation, quotes and flow brackets.',
};

function yamlMessage(error: YAMLError): string {
  if (FIXED_TEXT_CODES.has(error.code)) return error.message;
  return OWN_MESSAGES[error.code] ?? 'The YAML does not parse here.';
}

class YamlWalker {
  tooDeep = false;

  constructor(
    private readonly source: string,
    private readonly map: SourceMap,
    private readonly diagnostics: Diagnostic[],
  ) {}

  convert(node: Node | null, path: DocPath, depth: number, keyStart: number | undefined): unknown {
    const start = node?.range?.[0] ?? keyStart ?? 0;
    this.map.set(path, { start, keyStart });
    if (!node) return null;
    if (depth > LIMITS.maxDepth) {
      if (!this.tooDeep) this.report('TOO_LARGE', TOO_DEEP_MESSAGE, path);
      this.tooDeep = true;
      return undefined;
    }
    if (isAlias(node)) {
      this.report('ALIAS_NOT_ALLOWED', 'Aliases (*name) are not allowed; write the value out.', path);
      return undefined;
    }
    // A node's range starts after its properties; point at the `&anchor` or `!tag` itself.
    if (node.anchor) {
      const at = this.source.lastIndexOf(`&${node.anchor}`, start);
      this.reportAt('ALIAS_NOT_ALLOWED', 'Anchors (&name) are not allowed.', path, at);
    }
    if (node.tag) {
      let at = this.source.lastIndexOf('!', start);
      while (at > 0 && this.source[at - 1] === '!') at--;
      this.reportAt('TAG_NOT_ALLOWED', 'Tags (!!str, !custom) are not allowed.', path, at);
    }
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const keyOffset = keyNode?.range?.[0] ?? start;
        const raw: unknown = isScalar(keyNode) ? keyNode.value : undefined;
        if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
          const { line, column } = this.map.lineColumn(keyOffset);
          this.diagnostics.push({
            code: 'YAML_SYNTAX',
            message: 'Keys must be plain strings.',
            path: '',
            line,
            column,
          });
          continue;
        }
        const key = String(raw);
        const childPath = [...path, key];
        if (seen.has(key)) {
          this.map.set(childPath, { start: keyOffset, keyStart: keyOffset });
          this.report('DUPLICATE_KEY', DUPLICATE_KEY_MESSAGE, childPath, true);
          continue;
        }
        seen.add(key);
        defineField(out, key, this.convert(pair.value as Node | null, childPath, depth + 1, keyOffset));
      }
      return out;
    }
    if (isSeq(node)) {
      return node.items.map((item, i) =>
        this.convert(item as Node | null, [...path, i], depth + 1, undefined),
      );
    }
    if (isScalar(node)) return this.scalar(node, path, start, keyStart);
    return undefined;
  }

  private scalar(node: Scalar, path: DocPath, start: number, keyStart: number | undefined): unknown {
    const value = node.value;
    if (typeof value === 'string' && node.range) {
      const offsets = alignScalar(this.source, node, value);
      if (offsets) this.map.set(path, { start, keyStart, offsets });
    }
    return value;
  }

  private reportAt(code: Diagnostic['code'], message: string, path: DocPath, offset: number): void {
    if (offset < 0) return this.report(code, message, path);
    this.diagnostics.push({ code, message, path: formatPath(path), ...this.map.lineColumn(offset) });
  }

  private report(code: Diagnostic['code'], message: string, path: DocPath, key = false): void {
    this.diagnostics.push(this.map.diagnostic(code, message, path, { key }));
  }
}

/**
 * Maps each character of a string scalar to its source offset. Quoted scalars start after the
 * quote, block scalars after their header line; indentation is skipped. Returns undefined when
 * the value cannot be aligned (escape sequences, folded lines).
 */
function alignScalar(source: string, node: Scalar, value: string): number[] | undefined {
  const [start = 0, end = 0] = node.range ?? [];
  let j = start;
  if (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') j++;
  else if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') j = source.indexOf('\n', start) + 1;
  if (j <= 0) return undefined;
  const offsets: number[] = [];
  for (let i = 0; i < value.length; i++) {
    while (j < end && source[j] !== value[i] && (source[j] === ' ' || source[j] === '\t')) j++;
    if (j >= end || source[j] !== value[i]) return undefined;
    offsets.push(j++);
  }
  return offsets;
}

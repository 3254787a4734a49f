/**
 * Runs the `yaml` package's lexer, parser and composer on a definition within the compiler's
 * budget. The package spends a few microseconds on every lexical token (each line break, space
 * run, indicator, scalar and comment), and 64 KiB of short tokens take several hundred
 * milliseconds, so the token stream is counted as the lexer produces it, before the parser sees
 * a token: past `LIMITS.maxYamlTokens` tokens, or past `LIMITS.maxDepth` open flow brackets, the
 * parse stops there with a TOO_LARGE diagnostic at that position. Anchors and aliases are not
 * allowed, and each is diagnosed at its node; past `LIMITS.maxYamlAliases` of them (an alias bomb,
 * whose walk and diagnostics cost more than the parse) the parse stops with ALIAS_NOT_ALLOWED.
 */
import { Composer, CST, type Document, Lexer, Parser, YAMLParseError } from 'yaml';
import { LIMITS } from '../limits.js';
import { TOO_DEEP_MESSAGE } from './parsed-source.js';

/** Why and where the token stream was cut short. */
export interface YamlLimitHit {
  code: 'TOO_LARGE' | 'ALIAS_NOT_ALLOWED';
  message: string;
  /** Offset of the token that passed the limit. */
  offset: number;
}

/** The composed document, or the limit the source passed (then no document). */
export type BoundedYaml =
  { doc: Document.Parsed; limit?: undefined } | { doc?: undefined; limit: YamlLimitHit };

/** The message of a source with more tokens than the limit. */
export const TOO_MANY_TOKENS_MESSAGE = `The YAML has more than ${LIMITS.maxYamlTokens} tokens (line breaks, indentation, indicators, values, comments; one inside [ ] or { } counts twice); the limit is ${LIMITS.maxYamlTokens}.`;

/** The message of a source with more anchors and aliases than are diagnosed one by one. */
export const TOO_MANY_ALIASES_MESSAGE = `The YAML has more than ${LIMITS.maxYamlAliases} anchors and aliases (&name, *name); none are allowed.`;

/** Lexemes that mark a state change and take no place in the source. */
const CONTROL = new Set<string>([CST.DOCUMENT, CST.FLOW_END, CST.SCALAR]);

/** Parses one YAML document (a second one is a MULTIPLE_DOCS error), or reports the limit hit. */
export function composeBounded(source: string): BoundedYaml {
  const hit: { limit?: YamlLimitHit } = {};
  // Duplicate keys are found by the walk over the document, which knows their path, in linear
  // time: the package's own check compares each key with every earlier one of its mapping.
  const composer = new Composer({ uniqueKeys: false });
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(boundedTokens(source, hit), true, source.length)) {
    if (!doc) doc = next;
    else {
      const at: [number, number] = [next.range[0], next.range[1]];
      doc.errors.push(new YAMLParseError(at, 'MULTIPLE_DOCS', 'Source contains multiple documents'));
      break;
    }
  }
  if (hit.limit) return { limit: hit.limit };
  // The composer yields a document at the very latest at its end, when `forceDoc` is set.
  return { doc: doc as Document.Parsed };
}

/** The CST tokens of `source`, stopped (and `hit` set) at the first limit passed. */
function* boundedTokens(source: string, hit: { limit?: YamlLimitHit }) {
  const parser = new Parser();
  let tokens = 0;
  let depth = 0;
  let aliases = 0;
  const stop = (code: YamlLimitHit['code'], message: string) => {
    hit.limit = { code, message, offset: parser.offset };
  };
  let scalar = false;
  for (const lexeme of new Lexer().lex(source)) {
    // The package spends about twice as long on a token inside a flow collection.
    if (!CONTROL.has(lexeme)) tokens += depth > 0 ? 2 : 1;
    // The lexeme after a SCALAR mark is the scalar's text, whatever its first character.
    if (scalar) scalar = false;
    else if (lexeme === CST.SCALAR) scalar = true;
    else if (lexeme === '[' || lexeme === '{') depth += 1;
    else if ((lexeme === ']' || lexeme === '}') && depth > 0) depth -= 1;
    else if (lexeme === CST.FLOW_END) depth = 0;
    else if (lexeme[0] === '&' || lexeme[0] === '*') aliases += 1;
    if (tokens > LIMITS.maxYamlTokens) stop('TOO_LARGE', TOO_MANY_TOKENS_MESSAGE);
    else if (depth > LIMITS.maxDepth) stop('TOO_LARGE', TOO_DEEP_MESSAGE);
    else if (aliases > LIMITS.maxYamlAliases) stop('ALIAS_NOT_ALLOWED', TOO_MANY_ALIASES_MESSAGE);
    if (hit.limit) return;
    yield* parser.next(lexeme);
  }
  yield* parser.end();
}

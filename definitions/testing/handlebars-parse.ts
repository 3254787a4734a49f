/**
 * The template parser the compiler used before it had its own: digit segments bracketed
 * (numeric-segments.ts), then `Handlebars.parse` (its generated lexer and parser). Kept as the
 * oracle of the differential tests of parse-template.ts.
 */
import Handlebars from 'handlebars';
import type { TemplateParser } from '../compiler/parse-template.js';
import { bracketNumericSegments } from './numeric-segments.js';

export const parseWithHandlebars: TemplateParser = (source) => {
  const { text, toSource } = bracketNumericSegments(source);
  try {
    return { text, toSource, result: { program: Handlebars.parse(text) } };
  } catch (err) {
    return { text, toSource, result: { error: err instanceof Error ? err.message : String(err) } };
  }
};

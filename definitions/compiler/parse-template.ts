/**
 * Template text to Handlebars' tree, in time linear in the text: our lexer, the subset parser for
 * what the sandbox accepts, Handlebars' grammar for the rest (see handlebars-grammar.ts), then
 * Handlebars' whitespace control (`~` stripping and standalone lines), which walks the tree once.
 */
import Handlebars from 'handlebars';
import { parseWithHandlebarsGrammar } from './handlebars-grammar.js';
import { lexTemplate } from './template-lexer.js';
import { parseSubset } from './template-parser.js';

/**
 * A template's tree, or the parser's message when it does not parse. Line and column numbers
 * count in `text`; `toSource` maps an offset in `text` to one in the template as written.
 */
export interface ParsedTemplate {
  text: string;
  toSource(offset: number): number;
  result: { program: hbs.AST.Program } | { error: string };
}

/** Parses template text the way the sandbox compiles it. */
export type TemplateParser = (text: string) => ParsedTemplate;

/** Whitespace control on a tree (`Handlebars.parse` returns a tree it is given after it). */
const controlWhitespace = (program: hbs.AST.Program): hbs.AST.Program =>
  Handlebars.parse(program as unknown as string);

export const parseTemplate: TemplateParser = (text) => {
  const parsed = { text, toSource: (offset: number) => offset };
  try {
    const lexed = lexTemplate(text);
    const program = parseSubset(lexed.tokens) ?? parseWithHandlebarsGrammar(lexed);
    return { ...parsed, result: { program: controlWhitespace(program) } };
  } catch (err) {
    return { ...parsed, result: { error: err instanceof Error ? err.message : String(err) } };
  }
};

/** Reading command inputs: `--input <json|@file|->` values and definition files. */
import { readFileSync } from 'node:fs';
import { CliError, EXIT } from './output.js';

function readText(file: string): string {
  try {
    return file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(
      `Cannot read ${file === '-' ? 'stdin' : file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      EXIT.USAGE,
      'INPUT_UNREADABLE',
    );
  }
}

/** Parses `--input`: inline JSON, `@path/to/file.json`, or `@-` for stdin. Must be a JSON object. */
export function parseJsonInput(value: string, flag = '--input'): Record<string, unknown> {
  const text = value.startsWith('@') ? readText(value.slice(1)) : value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's own message quotes the text, which may be a secret or a query: never echo it.
    throw new CliError(
      `${flag} is not valid JSON: give a JSON object such as '{"name":"value"}', @file.json, or @- for stdin.`,
      EXIT.USAGE,
      'INVALID_INPUT',
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError(`${flag} must be a JSON object.`, EXIT.USAGE, 'INVALID_INPUT');
  }
  return parsed as Record<string, unknown>;
}

/** Reads a definition file. */
export function readDefinitionFile(file: string): string {
  return readText(file);
}

/** The content type a definition file is sent with: by extension, else by its first character. */
export function definitionFormat(file: string, text: string): 'yaml' | 'json' {
  if (/\.json$/i.test(file)) return 'json';
  if (/\.ya?ml$/i.test(file)) return 'yaml';
  return text.trimStart().startsWith('{') ? 'json' : 'yaml';
}

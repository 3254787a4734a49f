/**
 * Exit codes and how failures reach the terminal: an API error prints its envelope's code and
 * message (and each failing path) to stderr, never a stack trace. Only unexpected bugs print
 * a stack, and only with SKILLFLOW_DEBUG=1.
 */
import { diagnosticText } from '../definitions/diagnostic-text.js';
import type { Diagnostic } from '../definitions/diagnostics.js';
import { SkillflowApiError, SkillflowClientError } from '../sdk/index.js';

/** Exit codes of every command (docs/cli-and-sdk.md). */
export const EXIT = {
  OK: 0,
  /** API or connection error; `workflows validate` found diagnostics. */
  FAILURE: 1,
  /** Bad flags or arguments. */
  USAGE: 2,
  /** The task ended `failed`. */
  TASK_FAILED: 3,
  /** The task ended `cancelled`. */
  TASK_CANCELLED: 4,
  /** `--wait` gave up before the task ended. */
  WAIT_TIMEOUT: 5,
} as const;

/** A failure the CLI reports itself (bad input file, ambiguous apply, ...). */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.FAILURE,
    readonly code = 'CLI_ERROR',
  ) {
    super(message);
  }
}

/** Writes a line to stdout. */
export function out(line = ''): void {
  process.stdout.write(line + '\n');
}

/** Writes a line to stderr. */
export function err(line: string): void {
  process.stderr.write(line + '\n');
}

/**
 * Text from a run or an upstream made safe for a terminal: control characters (escape sequences
 * could move the cursor, retitle the window or hide lines) become U+FFFD; line breaks and tabs stay.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '\uFFFD');
}

/** Pretty JSON to stdout: exactly the value, nothing else. */
export function printJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

function detailLines(e: SkillflowApiError): string[] {
  const lines = e.issues.map((i) => `  ${i.path || '(root)'}: ${i.message}`);
  const diagnostics = e.details.diagnostics;
  if (Array.isArray(diagnostics)) {
    for (const d of diagnostics as Diagnostic[]) lines.push(`  ${diagnosticText(d)}`);
  }
  const scope = e.details.required_scope;
  if (scope !== undefined)
    lines.push(`  required scope: ${Array.isArray(scope) ? scope.join(' or ') : JSON.stringify(scope)}`);
  return lines;
}

const hints = new WeakMap<object, string>();

/** Attaches a hint to an API error a command rethrows: {@link report} prints it under the error. */
export function withHint<E extends object>(e: E, hint: string): E {
  hints.set(e, hint);
  return e;
}

/** Reports any thrown value and returns the exit code to use. */
export function report(e: unknown, hint?: (e: SkillflowApiError) => string | undefined): number {
  if (e instanceof SkillflowApiError) {
    err(`error: ${e.code} (HTTP ${e.status}): ${e.message}`);
    for (const line of detailLines(e)) err(line);
    const h = hints.get(e) ?? hint?.(e);
    if (h) err(`hint: ${h}`);
    return EXIT.FAILURE;
  }
  if (e instanceof SkillflowClientError) {
    err(`error: ${e.code}: ${e.message}`);
    return e.code === 'WAIT_TIMEOUT' ? EXIT.WAIT_TIMEOUT : EXIT.FAILURE;
  }
  if (e instanceof CliError) {
    err(`error: ${e.code}: ${e.message}`);
    return e.exitCode;
  }
  err(`error: INTERNAL: ${e instanceof Error ? e.message : String(e)}`);
  if (process.env.SKILLFLOW_DEBUG === '1' && e instanceof Error && e.stack) err(e.stack);
  return EXIT.FAILURE;
}

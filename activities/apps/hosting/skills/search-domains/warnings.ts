/**
 * Warning codes of the domain search skill. A warning never fails a group; it tells the caller
 * what was done on its behalf or what could not be done. README.md lists every code (a test
 * keeps the two in step).
 */
import { z } from 'zod';

export const WARNING_CODES = [
  /** A multi-word brief was reduced to one keyword before searching. */
  'QUERY_REDUCED',
  /** The exact name asked for is in use and `available_only` hides it. */
  'EXACT_NAME_IN_USE',
  /** The exact name asked for could not be checked (availability unknown). */
  'EXACT_NAME_UNKNOWN',
  /** Some checked names have unknown availability; they never fill result slots. */
  'AVAILABILITY_UNKNOWN',
  /** Prices came in another currency than requested and stay unknown. */
  'CURRENCY_MISMATCH',
  /** The relevance decision failed; provider order and availability selection were kept. */
  'RELEVANCE_FAILED',
  /** relevance_criteria was given but no relevance helper is configured. */
  'RELEVANCE_NOT_CONFIGURED',
  /** The checked pool was cut to its limit of 40 candidates. */
  'POOL_TRUNCATED',
] as const;

export type WarningCode = (typeof WARNING_CODES)[number];

/** A warning as it appears in a group's `warnings` array. */
export const WarningSchema = z
  .object({
    code: z.enum(WARNING_CODES).describe('Stable SCREAMING_SNAKE warning code (see the skill README).'),
    message: z.string().describe('Human-readable explanation.'),
  })
  .describe('Something the caller should know; it does not fail the group.');
export type Warning = z.output<typeof WarningSchema>;

/** Builds a warning. */
export function warning(code: WarningCode, message: string): Warning {
  return { code, message };
}

/**
 * What the compiler needs to know about skills. The skills registry implements
 * {@link SkillCatalog}; {@link createStaticCatalog} serves tests and tools.
 */
import type { z } from 'zod';

/** The compile-time view of one skill. */
export interface SkillCatalogEntry {
  /** `capabilities.unattended` of the skill's manifest. */
  unattended: boolean;
  /** The skill's full input schema (`{ requests: [...] }` for grouped skills). */
  input: z.ZodType;
  /** What later steps may reference. */
  workflowOutput: z.ZodType;
  /** Longest step `timeout` the skill's policy allows. */
  maxTimeoutMs: number;
  /** The widest `retry` the skill's policy allows: at most its attempts and its longest interval. */
  maxRetry: RetryBounds;
}

/** What a step's `retry` may ask for at most: a policy profile's attempts and longest interval. */
export interface RetryBounds {
  maximumAttempts: number;
  maximumIntervalMs: number;
}

/** Looks skills up by `<app>.<skill>` reference. */
export interface SkillCatalog {
  get(ref: string): SkillCatalogEntry | undefined;
  list(): string[];
}

/** A catalog over a fixed record of entries. */
export function createStaticCatalog(entries: Readonly<Record<string, SkillCatalogEntry>>): SkillCatalog {
  return {
    get: (ref) => (Object.hasOwn(entries, ref) ? entries[ref] : undefined),
    list: () => Object.keys(entries).sort(),
  };
}

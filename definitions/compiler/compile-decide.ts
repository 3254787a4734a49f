/**
 * Compiles a `decide` step: the typed-answer rules
 * (`choice` needs 2 or more distinct options and a fallback among them; `noul` a boolean or a
 * probability fallback; `score` an integer 0-4 fallback), its templates (checked like every
 * other template) and its `@encyclopedia:` references. Diagnostics point at the offending field
 * and never quote it.
 */
import { z } from 'zod';
import type { DecideSource } from '../schema/definition-schema.js';
import type { SchemaShape } from '../schema/schema-path.js';
import type { DecisionSpec, TemplateNode } from '../runtime/plan.js';
import type { DocPath } from '../source/source-map.js';
import { compileTemplate } from './compile-template.js';
import { checkEncyclopediaReferences } from './encyclopedia-references.js';
import type { ReferenceScope } from './reference-checker.js';

/** Scores run 0-4 (the decision helper's legend). */
export const MAX_DECISION_SCORE = 4;

/** The workflow-visible output of a `decide` step, typed by its answer, for the reference checker. */
export function decideOutputShape(source: DecideSource): SchemaShape {
  const answer =
    source.type === 'choice'
      ? z.string()
      : source.type === 'score'
        ? z.number().int()
        : typeof source.fallback === 'number'
          ? z.number()
          : z.boolean();
  return [
    z.strictObject({
      answer,
      confidence: z.number(),
      fallback_used: z.boolean(),
      reason: z.string().optional(),
      warnings: z.array(z.strictObject({ code: z.string(), message: z.string() })).optional(),
    }),
  ];
}

/** Checks the typed-answer rules; returns the spec, or undefined after reporting. */
function decisionSpec(source: DecideSource, path: DocPath, scope: ReferenceScope): DecisionSpec | undefined {
  const report = (message: string, at: DocPath): undefined => {
    scope.diagnostics.push(scope.map.diagnostic('INVALID_DECISION', message, at));
    return undefined;
  };
  const min = source.min_confidence !== undefined ? { minConfidence: source.min_confidence } : {};
  const { fallback } = source;
  if (source.type === 'choice') {
    const options = source.options ?? [];
    if (options.length < 2 || new Set(options).size !== options.length)
      return report('A choice needs at least 2 distinct options.', [
        ...path,
        source.options ? 'options' : 'type',
      ]);
    if (typeof fallback !== 'string' || !options.includes(fallback))
      return report('The fallback of a choice must be one of its options.', [...path, 'fallback']);
    return { type: 'choice', options, fallback, ...min };
  }
  if (source.options !== undefined) return report('Only a choice has options.', [...path, 'options']);
  if (source.type === 'noul') {
    const ok =
      typeof fallback === 'boolean' || (typeof fallback === 'number' && fallback >= 0 && fallback <= 1);
    if (!ok)
      return report('The fallback of a noul must be a boolean or a probability from 0 to 1.', [
        ...path,
        'fallback',
      ]);
    return { type: 'noul', fallback, ...min };
  }
  if (
    typeof fallback !== 'number' ||
    !Number.isInteger(fallback) ||
    fallback < 0 ||
    fallback > MAX_DECISION_SCORE
  )
    return report(`The fallback of a score must be an integer from 0 to ${MAX_DECISION_SCORE}.`, [
      ...path,
      'fallback',
    ]);
  return { type: 'score', fallback, ...min };
}

/** The compiled parts of a `decide` step, or undefined when its typed rules failed. */
export function compileDecide(
  source: DecideSource,
  path: DocPath,
  scope: ReferenceScope,
): { decision: DecisionSpec; question: TemplateNode[]; context?: TemplateNode[] } | undefined {
  const decision = decisionSpec(source, path, scope);
  const template = (text: string, key: string) =>
    compileTemplate(text, scope, { path: [...path, key], offset: 0 });
  checkEncyclopediaReferences(source.question, scope, [...path, 'question']);
  const question = template(source.question, 'question');
  const context = source.context === undefined ? undefined : template(source.context, 'context');
  if (!decision) return undefined;
  return { decision, question, ...(context && { context }) };
}

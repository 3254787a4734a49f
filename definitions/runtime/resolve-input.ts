/** Resolves a skill step's input template into the concrete input for its activity. */
import { cloneJson, defineField, resolveReference } from './lookup.js';
import { RenderBudget } from './budget.js';
import type { InputTemplate, RunScope } from './plan.js';
import { renderTemplate } from './render-template.js';

/**
 * Builds a step's input. A whole-string reference keeps the referenced value's type (a copy of
 * it); embedded references render as text. Missing values resolve to undefined, which drops the
 * field from objects when the input is serialised; the skill's own input schema, checked in the
 * activity, decides whether that is acceptable. Every template of one input shares one render
 * budget, so many small templates cannot add up to more work than one large one.
 */
export function resolveInput(
  template: InputTemplate,
  scope: RunScope,
  budget: RenderBudget = new RenderBudget(),
): unknown {
  switch (template.kind) {
    case 'literal':
      return cloneJson(template.value);
    case 'ref':
      return cloneJson(resolveReference(template.ref, scope));
    case 'text':
      return renderTemplate(template.template, scope, budget);
    case 'array':
      return template.items.map((item) => resolveInput(item, scope, budget));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const field of template.fields) {
        const value = resolveInput(field.value, scope, budget);
        if (value !== undefined) defineField(out, field.key, value);
      }
      return out;
    }
  }
}

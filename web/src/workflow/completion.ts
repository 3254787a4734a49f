/**
 * The YAML editor's completion source: keys of the definition language, the catalogue's skill
 * names, earlier step ids after `{{steps.` and a step's output fields after `{{steps.<id>.`
 * (from the compiler's outline that the validate route returns).
 */
import type { Completion, CompletionContext as Cursor, CompletionResult } from '@codemirror/autocomplete';
import type { ValidationResult } from '../../../sdk/generated.js';
import { completionContext } from './completion-context.js';
import { catalogueSkills } from './skill-catalogue.js';

export type Outline = ValidationResult['outline'];

/** The completion source; `outline` answers the latest outline the compiler returned. */
export function workflowCompletions(outline: () => Outline) {
  return async (cursor: Cursor): Promise<CompletionResult | null> => {
    const doc = cursor.state.doc.toString();
    const at = completionContext(doc, cursor.pos);
    if (!at) return null;
    switch (at.kind) {
      case 'key': {
        // Only offered unprompted once a letter is typed, not on every indentation.
        if (at.from === cursor.pos && !cursor.explicit) return null;
        const options: Completion[] = at.keys.map((k) => ({ label: k, type: 'keyword', apply: `${k}: ` }));
        return { from: at.from, options, validFor: /^\w*$/ };
      }
      case 'skill': {
        const skills = await catalogueSkills().catch(() => []);
        const options: Completion[] = skills.map((s) => ({
          label: s.name,
          detail: s.title,
          info: s.description,
          type: 'function',
        }));
        return { from: at.from, options, validFor: /^[\w.]*$/ };
      }
      case 'step': {
        const fields = new Map(outline().steps.map((s) => [s.id, s.fields.length]));
        const options: Completion[] = at.earlier.map((id) => ({
          label: id,
          type: 'variable',
          ...(fields.get(id) ? { detail: `${fields.get(id)} output fields` } : {}),
        }));
        return { from: at.from, options, validFor: /^\w*$/ };
      }
      case 'field': {
        const step = outline().steps.find((s) => s.id === at.step);
        if (!step) return null;
        const options: Completion[] = step.fields.map((f) => ({
          label: f.name,
          detail: f.type,
          type: 'property',
        }));
        return { from: at.from, options, validFor: /^\w*$/ };
      }
    }
  };
}

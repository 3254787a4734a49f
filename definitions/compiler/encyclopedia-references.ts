/**
 * The compile-time check of `@encyclopedia:` references in a `send_chat_message` message:
 * each literal reference must be well formed, and a message may hold at
 * most three (a reference built from a template expression counts, and is checked after
 * rendering). Diagnostics point at the offending directive; they never quote it.
 */
import { findDirectives, MAX_REFERENCES, parseDirective } from '../../lib/encyclopedia/references.js';
import type { ReferenceScope } from './reference-checker.js';
import type { DocPath } from '../source/source-map.js';

/** Reports every malformed reference and each one past the limit. */
export function checkEncyclopediaReferences(text: string, scope: ReferenceScope, path: DocPath): void {
  const directives = findDirectives(text);
  for (const [i, d] of directives.entries()) {
    const at = { offset: d.start };
    if (i >= MAX_REFERENCES) {
      scope.diagnostics.push(
        scope.map.diagnostic(
          'TOO_MANY_REFERENCES',
          `A message may hold at most ${MAX_REFERENCES} @encyclopedia references; this is number ${i + 1}.`,
          path,
          at,
        ),
      );
      continue;
    }
    if (d.dynamic) continue;
    const parsed = parseDirective(d.body);
    if (!parsed.ok)
      scope.diagnostics.push(
        scope.map.diagnostic(
          'INVALID_ENCYCLOPEDIA_REFERENCE',
          `The @encyclopedia reference ${parsed.message}.`,
          path,
          at,
        ),
      );
  }
}

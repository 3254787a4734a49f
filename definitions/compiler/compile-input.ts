/**
 * Compiles a skill step's `input` into an input template and checks it against the skill's
 * input schema as far as that is possible before run time.
 */
import { z } from 'zod';
import type { InputTemplate, JsonValue, Reference } from '../runtime/plan.js';
import { jsonKinds, type SchemaShape, walkSchema } from '../schema/schema-path.js';
import { issuesToDiagnostics } from '../schema/zod-issues.js';
import type { DocPath } from '../source/source-map.js';
import { compileTemplate } from './compile-template.js';
import { checkReference, type ReferenceScope, referenceShape } from './reference-checker.js';
import { scanReference, startsReference } from './reference-syntax.js';

/** A string of the input that holds references, and the shape of the value it yields. */
export interface InputReference {
  path: DocPath;
  shape: SchemaShape;
  /** `ref` for a whole-string reference, `text` for a text template. */
  text: 'ref' | 'text';
}

/** A compiled input and the strings in it that hold references. */
interface CompiledInput {
  template: InputTemplate;
  references: InputReference[];
}

const TEXT_SHAPE: SchemaShape = [z.string()];
const WHOLE_STRING =
  'A $nodes reference must be the whole string; embed values in text with {{steps.<id>.<field>}}.';

/**
 * Turns the input tree into a template. A string that is exactly `$nodes.<id>.output<path>` or
 * exactly one `{{path}}` mustache becomes a type-preserving reference; other strings with
 * mustaches become text templates; subtrees without references stay literal.
 */
export function compileInput(value: unknown, path: DocPath, scope: ReferenceScope): CompiledInput {
  if (typeof value === 'string') return compileString(value, path, scope);
  const literal = (references: InputReference[], template: InputTemplate): CompiledInput =>
    references.length === 0
      ? { template: { kind: 'literal', value: value as JsonValue }, references }
      : { template, references };
  if (Array.isArray(value)) {
    const parts = value.map((item, i) => compileInput(item, [...path, i], scope));
    return literal(
      parts.flatMap((p) => p.references),
      { kind: 'array', items: parts.map((p) => p.template) },
    );
  }
  if (typeof value === 'object' && value !== null) {
    const fields = Object.keys(value).map((key) => ({
      key,
      compiled: compileInput((value as Record<string, unknown>)[key], [...path, key], scope),
    }));
    return literal(
      fields.flatMap((f) => f.compiled.references),
      {
        kind: 'object',
        fields: fields.map((f) => ({ key: f.key, value: f.compiled.template })),
      },
    );
  }
  return { template: { kind: 'literal', value: (value ?? null) as JsonValue }, references: [] };
}

function compileString(value: string, path: DocPath, scope: ReferenceScope): CompiledInput {
  const literal: CompiledInput = { template: { kind: 'literal', value }, references: [] };
  const typed = (ref: Reference): CompiledInput => ({
    template: { kind: 'ref', ref },
    references: [{ path, shape: referenceShape(scope, ref), text: 'ref' }],
  });
  const nodesAt = value.indexOf('$nodes.');
  // `$item` and `$index` are references only as the whole string (elsewhere, text as written).
  if (nodesAt === 0 || (startsReference(value, 0) && value.startsWith('$'))) {
    const scanned = scanReference(value, 0);
    if (!scanned.ok || scanned.end !== value.length) {
      const message = scanned.ok ? WHOLE_STRING : `Malformed $nodes reference: ${scanned.message}`;
      const offset = scanned.ok ? scanned.end : scanned.at;
      scope.diagnostics.push(scope.map.diagnostic('INVALID_REFERENCE', message, path, { offset }));
      return literal;
    }
    checkReference(scope, scanned.ref, { path, offset: 0 });
    return typed(scanned.ref);
  }
  if (nodesAt > 0) {
    scope.diagnostics.push(
      scope.map.diagnostic('INVALID_REFERENCE', WHOLE_STRING, path, { offset: nodesAt }),
    );
    return literal;
  }
  if (!value.includes('{{')) return literal;
  const nodes = compileTemplate(value, scope, { path, offset: 0 });
  const [only] = nodes;
  if (nodes.length === 1 && only?.kind === 'value' && only.expr.kind === 'ref') return typed(only.expr.ref);
  if (nodes.every((n) => n.kind === 'text')) {
    return {
      template: { kind: 'literal', value: nodes.map((n) => (n.kind === 'text' ? n.text : '')).join('') },
      references: [],
    };
  }
  return {
    template: { kind: 'text', template: nodes },
    references: [{ path, shape: TEXT_SHAPE, text: 'text' }],
  };
}

const isPrefix = (prefix: readonly unknown[], path: readonly unknown[]): boolean =>
  prefix.length <= path.length && prefix.every((p, i) => p === path[i]);

/**
 * Validates the written input against the skill's schema. Issues at or below a string holding a
 * reference are dropped (its value is only known at run time), and so are union failures above
 * one. A reference whose value can never have the JSON kind the field needs (a list for a number)
 * is reported. The activity validates the resolved input again before the skill runs.
 */
export function checkSkillInput(
  schema: z.ZodType,
  value: unknown,
  base: DocPath,
  references: readonly InputReference[],
  scope: ReferenceScope,
): void {
  const relative = references.map((r) => ({ ...r, rel: r.path.slice(base.length) }));
  for (const ref of relative) {
    const expected = walkSchema([schema], ref.rel);
    if (!expected.ok) continue;
    const [want, have] = [jsonKinds(expected.shape), jsonKinds(ref.shape)];
    if (want === 'any' || have === 'any' || [...have].some((k) => want.has(k))) continue;
    const what = ref.text === 'text' ? 'this text' : 'the reference';
    const message = `The field expects ${[...want].join(' or ')}, but ${what} yields ${[...have].join(' or ')}.`;
    scope.diagnostics.push(scope.map.diagnostic('INVALID_SKILL_INPUT', message, ref.path));
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return;
  const issues = parsed.error.issues.filter((issue) => {
    const path = issue.path;
    if (relative.some((ref) => isPrefix(ref.rel, path))) return false;
    return !(issue.code === 'invalid_union' && relative.some((ref) => isPrefix(path, ref.rel)));
  });
  scope.diagnostics.push(
    ...issuesToDiagnostics(issues, { map: scope.map, base, value, code: 'INVALID_SKILL_INPUT' }),
  );
}

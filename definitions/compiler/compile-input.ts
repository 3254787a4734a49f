/**
 * Compiles a skill step's `input` into an input template and checks it against the skill's
 * input schema as far as that is possible before run time.
 */
import type { z } from 'zod';
import type { InputTemplate, JsonValue } from '../runtime/plan.js';
import { issuesToDiagnostics } from '../schema/zod-issues.js';
import type { DocPath } from '../source/source-map.js';
import { compileTemplate } from './compile-template.js';
import { checkReference, type ReferenceScope } from './reference-checker.js';
import { scanReference } from './reference-syntax.js';

/** A compiled input and the document paths of the strings that hold references. */
interface CompiledInput {
  template: InputTemplate;
  referencePaths: DocPath[];
}

/**
 * Turns the input tree into a template. A string that is exactly `$nodes.<id>.output<path>` or
 * exactly one `{{path}}` mustache becomes a type-preserving reference; other strings with
 * mustaches become text templates; subtrees without references stay literal.
 */
export function compileInput(value: unknown, path: DocPath, scope: ReferenceScope): CompiledInput {
  if (typeof value === 'string') return compileString(value, path, scope);
  if (Array.isArray(value)) {
    const parts = value.map((item, i) => compileInput(item, [...path, i], scope));
    const referencePaths = parts.flatMap((p) => p.referencePaths);
    if (referencePaths.length === 0) return { template: { kind: 'literal', value: value as JsonValue }, referencePaths };
    return { template: { kind: 'array', items: parts.map((p) => p.template) }, referencePaths };
  }
  if (typeof value === 'object' && value !== null) {
    const fields = Object.keys(value).map((key) => ({
      key,
      compiled: compileInput((value as Record<string, unknown>)[key], [...path, key], scope),
    }));
    const referencePaths = fields.flatMap((f) => f.compiled.referencePaths);
    if (referencePaths.length === 0) return { template: { kind: 'literal', value: value as JsonValue }, referencePaths };
    return {
      template: { kind: 'object', fields: fields.map((f) => ({ key: f.key, value: f.compiled.template })) },
      referencePaths,
    };
  }
  return { template: { kind: 'literal', value: (value ?? null) as JsonValue }, referencePaths: [] };
}

function compileString(value: string, path: DocPath, scope: ReferenceScope): CompiledInput {
  const literal: CompiledInput = { template: { kind: 'literal', value }, referencePaths: [] };
  const nodesAt = value.indexOf('$nodes.');
  if (nodesAt === 0) {
    const scanned = scanReference(value, 0);
    if (!scanned.ok || scanned.end !== value.length) {
      const message = scanned.ok
        ? `"${value}": a $nodes reference must be the whole string; embed values in text with {{steps.<id>.<field>}}.`
        : `"${value}": ${scanned.message}`;
      const offset = scanned.ok ? scanned.end : scanned.at;
      scope.diagnostics.push(scope.map.diagnostic('INVALID_REFERENCE', message, path, { offset }));
      return literal;
    }
    checkReference(scope, scanned.ref, { path, offset: 0 });
    return { template: { kind: 'ref', ref: scanned.ref }, referencePaths: [path] };
  }
  if (nodesAt > 0) {
    const message = 'A $nodes reference must be the whole string; embed values in text with {{steps.<id>.<field>}}.';
    scope.diagnostics.push(scope.map.diagnostic('INVALID_REFERENCE', message, path, { offset: nodesAt }));
    return literal;
  }
  if (!value.includes('{{')) return literal;
  const nodes = compileTemplate(value, scope, { path, offset: 0 });
  const [only] = nodes;
  if (nodes.length === 1 && only?.kind === 'value' && only.expr.kind === 'ref') {
    return { template: { kind: 'ref', ref: only.expr.ref }, referencePaths: [path] };
  }
  if (nodes.every((n) => n.kind === 'text')) {
    return { template: { kind: 'literal', value: nodes.map((n) => (n.kind === 'text' ? n.text : '')).join('') }, referencePaths: [] };
  }
  return { template: { kind: 'text', template: nodes }, referencePaths: [path] };
}

const isPrefix = (prefix: readonly unknown[], path: readonly unknown[]): boolean =>
  prefix.length <= path.length && prefix.every((p, i) => p === path[i]);

/**
 * Validates the written input against the skill's schema. Issues at or below a string holding a
 * reference are dropped (its value is only known at run time), and so are union failures above
 * one; the activity validates the resolved input again before the skill runs.
 */
export function checkSkillInput(
  schema: z.ZodType,
  value: unknown,
  base: DocPath,
  referencePaths: readonly DocPath[],
  scope: ReferenceScope,
): void {
  const parsed = schema.safeParse(value);
  if (parsed.success) return;
  const relative = referencePaths.map((p) => p.slice(base.length));
  const issues = parsed.error.issues.filter((issue) => {
    const path = issue.path;
    if (relative.some((ref) => isPrefix(ref, path))) return false;
    return !(issue.code === 'invalid_union' && relative.some((ref) => isPrefix(path, ref)));
  });
  scope.diagnostics.push(...issuesToDiagnostics(issues, { map: scope.map, base, value, code: 'INVALID_SKILL_INPUT' }));
}

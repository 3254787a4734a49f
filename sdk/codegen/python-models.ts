/**
 * `npm run sdk:python:generate`: writes the Python SDK's generated modules from the OpenAPI
 * document the API serves (/v1/openapi.json, built in-process by {@link buildApiDocument}):
 *   - sdk/python/src/skillflow/models.py: pydantic v2 models, written by the pinned
 *     datamodel-code-generator (.tools/python-sdk-venv) from named schemas taken out of the
 *     document (the response types of sdk/generated.ts, keys, the error envelope, and per skill
 *     its request body and its result: the skill's output schema plus the 200 fields);
 *   - sdk/python/src/skillflow/_apps.py: `client.apps.<app>.<skill>(input)`, one typed class per
 *     app with snake_case skill methods, from the skill routes of the document.
 * Both files carry the sha256 of the schemas they were made from; sdk/codegen/python-models.test.ts
 * fails when the document changes and they do not, test/integration/python-sdk.test.ts when they
 * differ from a fresh generation. `--check` exits 1 instead of writing when a file would change.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../lib/config.js';
import { buildApiDocument, type ApiDocument } from './api-document.js';
import { operation, pascalCase, RESPONSE_TYPES, responseSchema } from './generate.js';
import type { JsonSchema } from './json-schema-to-ts.js';
import { provisionPythonSdkVenv, PYTHON_SDK_DIR, type PythonSdkVenv } from './python-venv.js';

const run = promisify(execFile);

const PACKAGE_DIR = path.join(PROJECT_ROOT, PYTHON_SDK_DIR, 'src', 'skillflow');
/** The generated pydantic models. */
export const PYTHON_MODELS_FILE = path.join(PACKAGE_DIR, 'models.py');
/** The generated typed apps. */
export const PYTHON_APPS_FILE = path.join(PACKAGE_DIR, '_apps.py');

/** Types only the Python SDK names: name, path, method, status. */
const PYTHON_TYPES: [name: string, path: string, method: string, status: string, doc: string][] = [
  ['ErrorEnvelope', '/v1/tasks/{task_id}', 'get', '404', 'The body of every error answer.'],
];

/** One skill route of the document, as the Python SDK names it. */
export interface PythonSkill {
  appId: string;
  skillId: string;
  title: string;
  /** `HostingSearchDomains`: the prefix of its `…Input` and `…Result` models. */
  base: string;
}

/** The named schemas the models are generated from, and the skills they describe. */
export interface PythonSource {
  apiVersion: string;
  schemas: Record<string, JsonSchema>;
  skills: PythonSkill[];
}

const json = (schema: JsonSchema | undefined, what: string): JsonSchema => {
  if (!schema) throw new Error(`sdk python codegen: ${what} has no JSON schema`);
  return schema;
};

const SAFE_INT = 9007199254740991;

/**
 * Adapts a schema to pydantic without changing what it accepts: `number` also names `integer`
 * (pydantic would turn a JSON 3 into 3.0, so a model would no longer dump the body it parsed),
 * and zod's ±2^53-1 bounds of every integer are dropped (they would make each integer a RootModel).
 */
export function forPydantic(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forPydantic);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if ((k === 'minimum' && v === -SAFE_INT) || (k === 'maximum' && v === SAFE_INT)) continue;
    out[k] = forPydantic(v);
  }
  const types = Array.isArray(out.type) ? (out.type as unknown[]) : [out.type];
  if (types.includes('number') && !types.includes('integer')) out.type = ['integer', ...types];
  return out;
}

/** A skill's 200 body: its output's fields plus the fields every completed call adds. */
function resultSchema(output: JsonSchema, completed: JsonSchema, title: string): JsonSchema {
  const props = (s: JsonSchema) => s.properties ?? {};
  const required = (s: JsonSchema) => (Array.isArray(s.required) ? s.required : []);
  return {
    type: 'object',
    description: `Result of ${title}: the skill output plus previews and call_id.`,
    properties: { ...props(output), ...props(completed) },
    required: [...new Set([...required(output), ...required(completed)])],
  };
}

/** Takes the named schemas out of the document. */
export function pythonSource(doc: ApiDocument): PythonSource {
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, p, method, status, description] of [...RESPONSE_TYPES, ...PYTHON_TYPES]) {
    schemas[name] = { ...responseSchema(doc, p, method, status), description };
  }
  const body = (p: string, method: string) =>
    json(operation(doc, p, method).requestBody?.content?.['application/json']?.schema, `${method} ${p}`);
  schemas.CreateKeyInput = { ...body('/v1/keys', 'post'), description: 'The body of POST /v1/keys.' };
  const skills = [...doc.skills]
    .sort((a, b) => `${a.appId}.${a.skillId}`.localeCompare(`${b.appId}.${b.skillId}`))
    .map((s) => ({ ...s, route: `/v1/apps/${s.appId}/skills/${s.skillId}` }));
  const first = skills[0];
  if (!first) throw new Error('sdk python codegen: the document has no skill routes');
  // Every skill route answers with the same generic 200 and 202 schemas.
  const completed = responseSchema(doc, first.route, 'post', '200');
  schemas.SkillCallCompleted = { ...completed, description: 'A completed call of any skill (200).' };
  schemas.SkillCallAccepted = {
    ...responseSchema(doc, first.route, 'post', '202'),
    description: 'A queued or long-running skill call (202): poll task_id.',
  };
  const out: PythonSkill[] = [];
  for (const s of skills) {
    const base = `${pascalCase(s.appId)}${pascalCase(s.skillId)}`;
    schemas[`${base}Input`] = {
      ...body(s.route, 'post'),
      description: `Input of ${s.appId}.${s.skillId} (${s.title}).`,
    };
    schemas[`${base}Result`] = resultSchema(s.output, completed, `${s.appId}.${s.skillId}`);
    out.push({ appId: s.appId, skillId: s.skillId, title: s.title, base });
  }
  return {
    apiVersion: doc.openapi.info.version,
    schemas: forPydantic(schemas) as Record<string, JsonSchema>,
    skills: out,
  };
}

/** sha256 of the schemas: the staleness key both generated files carry. */
export function sourceHash(source: PythonSource): string {
  return createHash('sha256').update(JSON.stringify(source)).digest('hex');
}

const header = (source: PythonSource) =>
  [
    '# Generated by `npm run sdk:python:generate` from the OpenAPI document (/v1/openapi.json).',
    '# Do not edit: test/integration/python-sdk.test.ts fails when this file is stale.',
    `# API version ${source.apiVersion}; source sha256 ${sourceHash(source)}`,
  ].join('\n');

/** Runs datamodel-code-generator over the named schemas; resolves to models.py's text. */
export async function renderPythonModels(source: PythonSource, venv: PythonSdkVenv): Promise<string> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'skillflow-pymodels-'));
  try {
    const input = path.join(tmp, 'openapi.json');
    const output = path.join(tmp, 'models.py');
    const document = {
      openapi: '3.1.0',
      info: { title: 'skillflow', version: source.apiVersion },
      paths: {},
      components: { schemas: source.schemas },
    };
    writeFileSync(input, JSON.stringify(document, null, 2));
    // prettier-ignore
    await run(venv.codegen, [
      '--input', input, '--input-file-type', 'openapi', '--openapi-scopes', 'schemas',
      '--output', output, '--output-model-type', 'pydantic_v2.BaseModel',
      '--target-python-version', '3.10', '--formatters', 'builtin',
      '--enum-field-as-literal', 'all', '--extra-fields', 'allow', '--reuse-model',
      '--collapse-root-models', '--use-standard-collections', '--use-union-operator',
      '--use-annotated', '--field-constraints', '--use-schema-description',
      '--disable-timestamp', '--custom-file-header', header(source),
    ]);
    return readFileSync(output, 'utf8');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A Python identifier for an app or skill id (`search-domains` → `search_domains`). */
export function pythonName(id: string): string {
  return id.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=\d)/, '_');
}

/** Renders _apps.py: a typed class per app (sync and async) and the result model of each skill. */
export function renderPythonApps(source: PythonSource): string {
  const apps = [...new Set(source.skills.map((s) => s.appId))];
  const lines = [
    header(source),
    '"""Typed apps: `client.apps.<app>.<skill>(input)` for every skill route of the document."""',
    '',
    'from __future__ import annotations',
    '',
    'from collections.abc import Awaitable, Mapping',
    'from typing import Any',
    '',
    'from pydantic import BaseModel',
    '',
    'from . import models',
    'from ._app_base import AppBase, AppsBase',
    '',
    '#: The 200 model of each skill, by `<app>.<skill>`.',
    'SKILL_RESULTS: dict[str, type[BaseModel]] = {',
    ...source.skills.map((s) => `    "${s.appId}.${s.skillId}": models.${s.base}Result,`),
    '}',
  ];
  for (const [prefix, wrap] of [
    ['', (t: string) => t],
    ['Async', (t: string) => `Awaitable[${t}]`],
  ] as const) {
    for (const appId of apps) {
      lines.push(
        '',
        '',
        `class ${prefix}${pascalCase(appId)}App(AppBase):`,
        `    """The \`${appId}\` app."""`,
      );
      for (const s of source.skills.filter((x) => x.appId === appId)) {
        const result = wrap(`models.${s.base}Result | models.SkillCallAccepted`);
        lines.push(
          '',
          `    def ${pythonName(s.skillId)}(`,
          '        self,',
          `        input: models.${s.base}Input | Mapping[str, Any],`,
          '        *,',
          '        team_id: str | None = None,',
          '        idempotency_key: str | None = None,',
          `    ) -> ${result}:`,
          `        """${s.title}: POST /v1/apps/${s.appId}/skills/${s.skillId}."""`,
          `        result: ${result} = self._call("${s.skillId}", input, team_id, idempotency_key)`,
          '        return result',
        );
      }
    }
    lines.push(
      '',
      '',
      `class ${prefix}Apps(AppsBase):`,
      '    """Every app of the document as a property."""',
    );
    for (const appId of apps) {
      const cls = `${prefix}${pascalCase(appId)}App`;
      lines.push(
        '',
        '    @property',
        `    def ${pythonName(appId)}(self) -> ${cls}:`,
        `        return ${cls}(self._skills, "${appId}")`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

/** Both generated files' expected text. */
export async function generatePython(
  doc?: ApiDocument,
  venv?: PythonSdkVenv,
): Promise<{ file: string; text: string }[]> {
  const source = pythonSource(doc ?? (await buildApiDocument()));
  const env = venv ?? (await provisionPythonSdkVenv({ rootDir: PROJECT_ROOT }));
  return [
    { file: PYTHON_MODELS_FILE, text: await renderPythonModels(source, env) },
    { file: PYTHON_APPS_FILE, text: renderPythonApps(source) },
  ];
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  let stale = false;
  for (const { file, text } of await generatePython()) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // first generation
    }
    const rel = path.relative(process.cwd(), file);
    if (current === text) process.stdout.write(`${rel} is up to date\n`);
    else if (check) {
      stale = true;
      process.stdout.write(`${rel} is stale: run npm run sdk:python:generate\n`);
    } else {
      writeFileSync(file, text);
      process.stdout.write(`wrote ${rel}\n`);
    }
  }
  process.exit(stale ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

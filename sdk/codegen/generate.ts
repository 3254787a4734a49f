/**
 * `npm run sdk:generate`: writes sdk/generated.ts, the SDK's types, from the OpenAPI document
 * the API serves (/v1/openapi.json, built in-process by {@link buildApiDocument}) and each
 * skill's output schema. sdk/generated.test.ts fails when the committed file is stale.
 *
 * `--check` exits 1 instead of writing when the file would change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as prettier from 'prettier';
import { z } from 'zod';
import { ANONYMOUS_RESPONSE_SCHEMAS } from '../../api/routes/anonymous.js';
import { buildApiDocument, type ApiDocument } from './api-document.js';
import { printType, type JsonSchema } from './json-schema-to-ts.js';

/** Where the generated module lives. */
export const GENERATED_FILE = path.resolve(import.meta.dirname, '../generated.ts');

/** Response types taken from the document: name, path, method, status (also the Python SDK's models). */
export const RESPONSE_TYPES: [name: string, path: string, method: string, status: string, doc: string][] = [
  ['Task', '/v1/tasks/{task_id}', 'get', '200', 'A task: a workflow run or a long-running skill call.'],
  [
    'WorkflowDefinition',
    '/v1/workflows/{id}',
    'get',
    '200',
    'A workflow definition with its source and schedule.',
  ],
  ['WorkflowList', '/v1/workflows', 'get', '200', 'The caller’s workflow definitions.'],
  [
    'ValidationResult',
    '/v1/workflows/validate',
    'post',
    '200',
    'Validation of a definition (nothing is saved).',
  ],
  ['RunStarted', '/v1/workflows/{id}/runs', 'post', '202', 'A started run.'],
  ['RunList', '/v1/workflows/{id}/runs', 'get', '200', 'Run history of a definition.'],
  ['RunSearchPage', '/v1/runs', 'get', '200', 'One page of the caller’s runs across definitions.'],
  ['ScheduleState', '/v1/workflows/{id}/schedule/pause', 'post', '200', 'State of a definition’s schedule.'],
  [
    'BackfillStarted',
    '/v1/workflows/{id}/schedule/backfill',
    'post',
    '202',
    'A schedule backfill: the ticks of the window its runs start for.',
  ],
  [
    'RotatedHook',
    '/v1/workflows/{id}/hook/rotate',
    'post',
    '200',
    'A webhook trigger’s hook with its new signing secret, shown this once.',
  ],
  ['ChatList', '/v1/chats', 'get', '200', 'The caller’s chats, most recently active first.'],
  [
    'ChatMessageList',
    '/v1/chats/messages',
    'post',
    '200',
    'Messages delivered to a chat, newest first, sealed to the owner’s chat keys.',
  ],
  ['ChatKeyList', '/v1/chats/keys', 'get', '200', 'The caller’s chat keys (public keys of its devices).'],
  ['ChatKey', '/v1/chats/keys', 'post', '201', 'A registered chat key.'],
  ['AppView', '/v1/apps/{app_id}', 'get', '200', 'An app and its skills.'],
  ['SkillView', '/v1/apps/{app_id}/skills/{skill_id}', 'get', '200', 'A skill.'],
  ['SkillDetails', '/v1/apps/{app_id}/skills/{skill_id}/details', 'get', '200', 'A skill with its schemas.'],
  ['ApiKeyList', '/v1/keys', 'get', '200', 'The caller’s API keys (never with their tokens).'],
  ['CreatedApiKey', '/v1/keys', 'post', '201', 'A new API key: the only answer that shows its token.'],
  ['ApprovalList', '/v1/approvals', 'get', '200', 'The approvals the caller’s runs wait for.'],
  [
    'ApprovalDecided',
    '/v1/runs/{run_id}/approvals/{step_id}',
    'post',
    '200',
    'A decision delivered to a waiting run.',
  ],
  ['ApprovalLinkView', '/v1/approval-links/view', 'post', '200', 'What an approval link asks.'],
  [
    'DownloadLink',
    '/v1/assets/download-links',
    'post',
    '200',
    'A short-lived download link to a generated asset; the URL is the credential.',
  ],
  ['EventSent', '/v1/events', 'post', '200', 'What an event did: the runs it resumed and started.'],
  ['RerunStarted', '/v1/runs/{run_id}/rerun', 'post', '202', 'A started re-run and what it takes over.'],
  [
    'RunStep',
    '/v1/runs/{run_id}/steps/{step_id}',
    'get',
    '200',
    'One step of a run: the input its call was given and what it answered.',
  ],
];

/** Request bodies taken from the document: name, path, method. */
export const REQUEST_TYPES: [name: string, path: string, method: string, doc: string][] = [
  ['CreateKeyInput', '/v1/keys', 'post', 'The body of POST /v1/keys.'],
];

/** The parts of an OpenAPI operation the generators read. */
export type Operation = {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
};

/** `search_domains` → `searchDomains` (the SDK's method names). */
export function camelCase(id: string): string {
  return id.replace(/[_-]+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}
/** `search_domains` → `SearchDomains`. */
export const pascalCase = (id: string): string => camelCase(id).replace(/^[a-z]/, (c) => c.toUpperCase());

/** One operation of the document; throws when it is missing. */
export function operation(doc: ApiDocument, p: string, method: string): Operation {
  const op = doc.openapi.paths[p]?.[method] as Operation | undefined;
  if (!op) throw new Error(`sdk codegen: ${method.toUpperCase()} ${p} is missing from the OpenAPI document`);
  return op;
}

/** The JSON schema of one response of an operation; throws when it is missing. */
export function responseSchema(doc: ApiDocument, p: string, method: string, status: string): JsonSchema {
  const schema = operation(doc, p, method).responses?.[status]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`sdk codegen: ${method.toUpperCase()} ${p} has no JSON ${status} response`);
  return schema;
}

/** Renders the module text (unformatted). */
export function renderGenerated(doc: ApiDocument): string {
  const out: string[] = [
    '/**',
    ' * Generated by `npm run sdk:generate` from the OpenAPI document (/v1/openapi.json) and the',
    ' * skills’ output schemas. Do not edit: sdk/generated.test.ts fails when this file is stale.',
    ' */',
    '',
    `/** The API version these types were generated from. */`,
    `export const API_VERSION = ${JSON.stringify(doc.openapi.info.version)};`,
    '',
  ];
  for (const [name, p, method, status, comment] of RESPONSE_TYPES) {
    out.push(
      `/** ${comment} */`,
      `export type ${name} = ${printType(responseSchema(doc, p, method, status))};`,
      '',
    );
  }
  // The guest routes are left out of the developer document (`hide: true`); their answers are
  // typed from the routes' own response schemas (the web workspace uses them).
  for (const [name, schema] of Object.entries(ANONYMOUS_RESPONSE_SCHEMAS)) {
    out.push(
      `/** ${schema.description ?? name} (a guest route, not in the OpenAPI document). */`,
      `export type ${name} = ${printType(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema)};`,
      '',
    );
  }
  for (const [name, p, method, comment] of REQUEST_TYPES) {
    const body = operation(doc, p, method).requestBody?.content?.['application/json']?.schema;
    if (!body) throw new Error(`sdk codegen: ${method.toUpperCase()} ${p} has no JSON request body`);
    out.push(`/** ${comment} */`, `export type ${name} = ${printType(body, { io: 'input' })};`, '');
  }
  const skills = [...doc.skills].sort((a, b) =>
    `${a.appId}.${a.skillId}`.localeCompare(`${b.appId}.${b.skillId}`),
  );
  const map: string[] = [];
  const names: string[] = [];
  let currentApp = '';
  for (const s of skills) {
    const base = `${pascalCase(s.appId)}${pascalCase(s.skillId)}`;
    const route = `/v1/apps/${s.appId}/skills/${s.skillId}`;
    const input = operation(doc, route, 'post').requestBody?.content?.['application/json']?.schema;
    out.push(
      `/** Input of \`${s.appId}.${s.skillId}\` (${s.title}): the body of POST ${route}. */`,
      `export type ${base}Input = ${printType(input, { io: 'input' })};`,
      '',
      `/** Output of \`${s.appId}.${s.skillId}\` (without \`previews\` and \`call_id\`). */`,
      `export type ${base}Output = ${printType(s.output)};`,
      '',
    );
    if (s.appId !== currentApp) {
      if (currentApp) map.push('  };', '');
      map.push(`  ${s.appId}: {`);
      currentApp = s.appId;
    }
    map.push(
      `    ${camelCase(s.skillId)}: { input: ${base}Input; output: ${base}Output; mode: '${s.mode}' };`,
    );
    names.push(`  ${JSON.stringify(`${s.appId}.${s.skillId}`)},`);
  }
  if (currentApp) map.push('  };');
  out.push(
    '/** Every skill known when the types were generated: app → camelCase skill → types. */',
    'export interface SkillTypes {',
    ...map,
    '}',
    '',
    '/** `<app>.<skill>` of every skill known when the types were generated. */',
    'export const KNOWN_SKILLS = [',
    ...names,
    '] as const;',
    '',
  );
  return out.join('\n');
}

/** Renders and formats with the project's Prettier settings. */
export async function generate(doc?: ApiDocument): Promise<string> {
  const text = renderGenerated(doc ?? (await buildApiDocument()));
  const options = (await prettier.resolveConfig(GENERATED_FILE)) ?? {};
  return prettier.format(text, { ...options, filepath: GENERATED_FILE });
}

async function main(): Promise<void> {
  const next = await generate();
  let current = '';
  try {
    current = readFileSync(GENERATED_FILE, 'utf8');
  } catch {
    // first generation
  }
  const rel = path.relative(process.cwd(), GENERATED_FILE);
  if (process.argv.includes('--check')) {
    process.stdout.write(
      current === next ? `${rel} is up to date\n` : `${rel} is stale: run npm run sdk:generate\n`,
    );
    process.exit(current === next ? 0 : 1);
  }
  if (current === next) process.stdout.write(`${rel} is up to date\n`);
  else {
    writeFileSync(GENERATED_FILE, next);
    process.stdout.write(`wrote ${rel}\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

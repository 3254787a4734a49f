/**
 * The Python SDK's generated modules must come from the current OpenAPI document: both carry the
 * sha256 of the schemas they were generated from, so an API change without
 * `npm run sdk:python:generate` fails here (no Python needed). _apps.py is rendered in
 * TypeScript and compared whole; models.py is compared whole, after a real run of the pinned
 * generator, by test/integration/python-sdk.test.ts.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApiDocument, type ApiDocument } from './api-document.js';
import {
  forPydantic,
  PYTHON_APPS_FILE,
  PYTHON_MODELS_FILE,
  pythonSource,
  renderPythonApps,
  sourceHash,
} from './python-models.js';

const hashIn = (file: string) => /source sha256 ([0-9a-f]{64})/.exec(readFileSync(file, 'utf8'))?.[1];

describe('the Python SDK models', () => {
  let doc: ApiDocument;
  beforeAll(async () => {
    doc = await buildApiDocument();
  });

  it('were generated from the current OpenAPI document (run npm run sdk:python:generate when this fails)', () => {
    const hash = sourceHash(pythonSource(doc));
    expect(hashIn(PYTHON_MODELS_FILE)).toBe(hash);
    expect(hashIn(PYTHON_APPS_FILE)).toBe(hash);
    expect(readFileSync(PYTHON_APPS_FILE, 'utf8')).toBe(renderPythonApps(pythonSource(doc)));
  });

  it('notice a changed response schema', () => {
    const changed = structuredClone(doc);
    const task = changed.openapi.paths['/v1/tasks/{task_id}']!.get as {
      responses: Record<
        string,
        { content: Record<string, { schema: { properties: Record<string, unknown> } }> }
      >;
    };
    task.responses['200']!.content['application/json']!.schema.properties.extra = { type: 'string' };
    expect(sourceHash(pythonSource(changed))).not.toBe(hashIn(PYTHON_MODELS_FILE));
  });

  it('name a typed model per skill and snake_case methods per app', () => {
    const source = pythonSource(doc);
    expect(source.skills.map((s) => `${s.appId}.${s.skillId}`)).toContain('hosting.search_domains');
    expect(Object.keys(source.schemas)).toEqual(
      expect.arrayContaining([
        'Task',
        'HostingSearchDomainsInput',
        'HostingSearchDomainsResult',
        'ErrorEnvelope',
      ]),
    );
    expect(source.schemas.HostingSearchDomainsResult?.required).toEqual(['results', 'previews', 'call_id']);
    const apps = renderPythonApps(source);
    expect(apps).toContain('class HostingApp(AppBase):');
    expect(apps).toContain('    def search_domains(\n');
    expect(apps).toContain('"hosting.search_domains": models.HostingSearchDomainsResult,');
  });

  it('keep JSON integers integers and drop zod’s safe-integer bounds', () => {
    expect(
      forPydantic({
        type: 'object',
        properties: {
          n: { type: 'number', minimum: 0 },
          i: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
          m: { type: ['number', 'boolean'] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        n: { type: ['integer', 'number'], minimum: 0 },
        i: { type: 'integer' },
        m: { type: ['integer', 'number', 'boolean'] },
      },
    });
  });
});

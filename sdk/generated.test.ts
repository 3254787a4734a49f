/**
 * sdk/generated.ts must match what `npm run sdk:generate` produces from the current OpenAPI
 * document and skill schemas: an API or skill schema change without regenerating fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildApiDocument } from './codegen/api-document.js';
import { GENERATED_FILE, generate } from './codegen/generate.js';

describe('sdk/generated.ts', () => {
  it('is up to date with the OpenAPI document (run npm run sdk:generate when this fails)', async () => {
    const doc = await buildApiDocument();
    expect(doc.skills.map((s) => `${s.appId}.${s.skillId}`)).toContain('hosting.search_domains');
    const expected = await generate(doc);
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(expected);
  });

  it('types every skill route of the document with camelCase methods', () => {
    const text = readFileSync(GENERATED_FILE, 'utf8');
    expect(text).toMatch(
      /searchDomains: \{\s*input: HostingSearchDomainsInput;\s*output: HostingSearchDomainsOutput;\s*mode: 'sync'/,
    );
    // Request fields with a server default are optional in the input type.
    expect(text).toMatch(/max_results\?: number;/);
    expect(text).toMatch(/query: string;/);
  });
});

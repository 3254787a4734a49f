/**
 * `workflows validate` compiles against a catalog rebuilt from the API's skill details (JSON
 * Schema → zod). It must find the same problems, at the same positions, as the registry
 * catalog the API itself compiles with.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogFromRegistry } from '../activities/registry/catalog.js';
import { loadRegistry } from '../activities/registry/registry.js';
import { skillDetails } from '../api/routes/skill-views.js';
import { compileDefinition, type SkillCatalog } from '../definitions/index.js';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { staticSecrets } from '../lib/secrets.js';
import { catalogFromDetails } from './live-catalog.js';
import { APPS } from '../activities/apps/index.js';

const head =
  'title: T\nstart_when:\n  manual: {}\nsteps:\n  - id: search\n    use_app_skill: hosting.search_domains\n';
const CASES: Record<string, string> = {
  valid: `${head}    input:\n      requests:\n        - query: cedar\n          tlds: [com]\n`,
  'out of range and unknown field': `${head}    input:\n      requests:\n        - query: cedar\n          max_results: 50\n          colour: red\n`,
  'missing query, empty requests': `${head}    input:\n      requests: []\n`,
  'unknown output field': `${head}    input:\n      requests: [{ query: cedar }]\n  - id: note\n    send_chat_message:\n      title: x\n      message: "{{steps.search.nothing}}"\n`,
  'decide: fallback not among the options': `${head}    input:\n      requests: [{ query: cedar }]\n  - id: pick\n    decide:\n      type: choice\n      question: Which?\n      context: "{{json steps.search.results}}"\n      options: [a, b]\n      fallback: c\n`,
  'unknown skill':
    'title: T\nstart_when:\n  manual: {}\nsteps:\n  - id: s\n    use_app_skill: hosting.search_domain\n    input: {}\n',
};

const shape = (catalog: SkillCatalog, source: string) => {
  const res = compileDefinition(source, { catalog, format: 'yaml' });
  return res.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.path}`);
};

describe('live catalog (from skill details)', () => {
  let registryCatalog: SkillCatalog;
  let liveCatalog: SkillCatalog;

  beforeAll(async () => {
    const registry = await loadRegistry(
      {
        config: loadConfig({}),
        logger: createLogger('silent'),
        secrets: staticSecrets({}),
      },
      APPS,
    );
    registryCatalog = catalogFromRegistry(registry);
    const details = registry
      .all()
      .filter((s) => s.impl)
      .map((s) => skillDetails({ ...s, impl: s.impl! }));
    liveCatalog = catalogFromDetails(details);
  });

  it('lists the same skills', () => {
    expect(liveCatalog.list()).toEqual(registryCatalog.list());
    expect(liveCatalog.list()).toContain('hosting.search_domains');
  });

  for (const [name, source] of Object.entries(CASES)) {
    it(`reports the same codes, positions and paths: ${name}`, () => {
      const expected = shape(registryCatalog, source);
      expect(shape(liveCatalog, source)).toEqual(expected);
      if (name !== 'valid') expect(expected.length).toBeGreaterThan(0);
      else expect(expected).toEqual([]);
    });
  }
});

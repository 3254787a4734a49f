/**
 * The registered skill: registry loading (the app definition and its factory), configuration errors,
 * relevance with the decision simulator, selection warnings, the output contract
 * (JSON-safe, schema-valid, workflow view, previews) and privacy (no query or result in logs, the transport never in the output).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../../lib/config.js';
import { createLogger } from '../../../../../lib/logger.js';
import { staticSecrets } from '../../../../../lib/secrets.js';
import { SkillflowError } from '../../../../../lib/errors/skillflow-error.js';
import { loadRegistry } from '../../../../registry/registry.js';
import { APPS } from '../../../index.js';
import { runSkill } from '../../../../runtime/run-skill.js';
import { call, CHECKED_AT, DECISION_KEY, ok, useUpstreams } from './orchestration.test-helpers.js';
import { createUpstreamMeter } from '../../../../runtime/upstream-meter.js';

const up = useUpstreams();
const ctx = {
  view: 'full',
  anonymous: false,
  meter: createUpstreamMeter({ skill: 'hosting.search_domains' }),
} as const;
const GREENTEA = { query: 'greentea', tlds: ['com'] };
const GREENTEA_ORDER = [
  'greentea.com',
  'getgreentea.com',
  'greenteaapp.com',
  'thegreentea.com',
  'greenteaonline.com',
  'trygreentea.com',
  'greentealab.com',
];

describe('registration', () => {
  it('loads hosting.search_domains from the catalogue through the registry, and runs it', async () => {
    const config = loadConfig({ SHOP_URL: up.sim.url });
    const registry = await loadRegistry(
      {
        config,
        logger: createLogger('silent'),
        secrets: staticSecrets({}),
      },
      APPS,
    );
    expect(registry.problems).toEqual([]);
    const skill = registry.available('hosting', 'search-domains');
    expect(skill?.manifest).toMatchObject({
      id: 'search_domains',
      appId: 'hosting',
      capabilities: {
        mode: 'sync',
        access: 'read',
        unattended: true,
        needsConnectedAccount: false,
        needsApproval: false,
      },
      anonymousAccess: 'inline',
      providers: ['shop', 'decision'],
      models: [config.decision.DECISION_MODEL],
      policy: 'upstream-search',
      primaryFields: ['query'],
    });
    expect(skill!.impl.defaults).toEqual({
      country: 'DE',
      currency: 'EUR',
      max_results: 10,
      availability: 'prefer_available',
    });
    const { output } = (await runSkill(
      skill!,
      { requests: [{ id: 'r1', query: 'cedarwood.com' }] },
      ctx,
    )) as {
      output: { results: { id: string }[] };
    };
    expect(output.results.map((g) => g.id)).toEqual(['r1']);
  });

  it('loads without SHOP_URL; a call then fails with SERVICE_UNAVAILABLE and sends nothing', async () => {
    const registry = await loadRegistry(
      {
        config: loadConfig({}),
        logger: createLogger('silent'),
        secrets: staticSecrets({}),
      },
      APPS,
    );
    const skill = registry.available('hosting', 'search_domains');
    expect(skill).toBeDefined();
    const err = await runSkill(skill!, { requests: [{ query: 'cedarwood.com' }] }, ctx).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SkillflowError);
    expect([(err as SkillflowError).code, (err as SkillflowError).message]).toEqual([
      'SERVICE_UNAVAILABLE',
      'Domain search is not configured: no shop URL (SHOP_URL).',
    ]);
    expect(up.sim.requests()).toEqual([]);
  });

  it('the anonymous route accepts exactly one group', async () => {
    const res = await call(up, { requests: [{ query: 'a1.com' }, { query: 'b1.com' }] }, { anonymous: true });
    expect((res.error as SkillflowError).code).toBe('INVALID_PARAMETER');
    expect(up.sim.requests()).toEqual([]);
  });
});

describe('relevance', () => {
  it('one bounded decision per group: scores below 1 are removed, the rest reordered', async () => {
    const out = await ok(up, { requests: [{ ...GREENTEA, relevance_criteria: 'app lab' }] });
    const reqs = up.decision.requests();
    expect(reqs).toHaveLength(1);
    expect(reqs[0]!.headers.authorization).toBe(`Bearer ${DECISION_KEY}`);
    const body = reqs[0]!.body as { state: { candidates: { trust: string; items: Record<string, string> } } };
    expect(body.state.candidates.trust).toBe('untrusted');
    expect(Object.values(body.state.candidates.items)).toEqual(GREENTEA_ORDER);
    const g = out.results[0]!;
    expect(g.relevance_applied).toEqual({ status: 'applied', evaluated: 7, removed: 5 });
    expect(g.results.map((r) => r.domain)).toEqual(['greenteaapp.com', 'greentealab.com']);
    expect(g.checked_results).toHaveLength(7);
  });

  it('a failed decision keeps provider order and availability selection, with a warning', async () => {
    up.decision.setFault({ type: 'status', status: 500 });
    const out = await ok(up, { requests: [{ ...GREENTEA, relevance_criteria: 'app lab' }] });
    const g = out.results[0]!;
    expect(g.relevance_applied).toEqual({ status: 'failed', evaluated: 0, removed: 0 });
    expect(g.warnings.map((w) => w.code)).toEqual(['RELEVANCE_FAILED']);
    expect(g.results.map((r) => r.domain)).toEqual(GREENTEA_ORDER);
    expect(g.error).toBeNull();
  });

  it('a missing answer invalidates the whole decision', async () => {
    up.decision.setFault({ type: 'missing_answer' });
    const out = await ok(up, { requests: [{ ...GREENTEA, relevance_criteria: 'app lab' }] });
    expect(out.results[0]!.relevance_applied.status).toBe('failed');
  });

  it('without DECISION_URL the same fallback applies, stated as not_configured', async () => {
    const out = await ok(
      up,
      { requests: [{ ...GREENTEA, relevance_criteria: 'app lab' }] },
      { decision: false },
    );
    expect(up.decision.requests()).toEqual([]);
    expect(out.results[0]).toMatchObject({
      relevance_applied: { status: 'not_configured' },
      warnings: [{ code: 'RELEVANCE_NOT_CONFIGURED' }],
    });
    expect(out.results[0]!.results.map((r) => r.domain)).toEqual(GREENTEA_ORDER);
  });

  it('blank criteria make no decision', async () => {
    const out = await ok(up, { requests: [{ ...GREENTEA, relevance_criteria: '   ' }] });
    expect(up.decision.requests()).toEqual([]);
    expect(out.results[0]!.relevance_applied.status).toBe('not_requested');
  });
});

describe('output contract', () => {
  it('available_only hides an exact in-use name with a warning; the evidence stays in raw', async () => {
    const res = await call(up, {
      requests: [{ id: 'x', query: 'example.com', availability: 'available_only' }],
    });
    const g = res.output!.results[0]!;
    expect(g.results).toEqual([]);
    expect(g.checked_results).toMatchObject([{ domain: 'example.com', availability: 'unavailable' }]);
    expect(g.warnings.map((w) => w.code)).toEqual(['EXACT_NAME_IN_USE']);
    const view = res.skill.toWorkflowOutput(res.output!);
    expect(view).toMatchObject({ results: [], result_count: 0, error: null });
    expect(view.raw.results[0]!.checked_results).toHaveLength(1);
  });

  it('is JSON-safe (no NaN), schema-valid, with checked_at from the clock and links from SHOP_URL', async () => {
    const res = await call(up, {
      requests: [
        { id: 'a', query: 'cedarwood', tlds: ['ai', 'online'] },
        { id: 'b', query: 'cedar.online' },
      ],
    });
    const output = res.output!;
    expect(JSON.parse(JSON.stringify(output))).toEqual(output);
    expect(res.skill.output.parse(output)).toEqual(output);
    const all = output.results.flatMap((g) => g.checked_results);
    expect(new Set(all.map((r) => r.checked_at))).toEqual(new Set([CHECKED_AT]));
    for (const r of all) expect(r.url).toBe(`${up.sim.url}/en/domains/search?domain=${r.domain}`);
    const view = res.skill.toWorkflowOutput(output);
    expect(res.skill.workflowOutput.parse(view)).toEqual(view);
    expect(view.result_count).toBe(view.results.length);
    expect(view.results.filter((r) => r.group_id === 'b').map((r) => [r.domain, r.group_index])).toEqual([
      ['cedar.online', 1],
    ]);
    const previews = res.skill.previews(output);
    expect(previews).toHaveLength(view.result_count);
    expect(previews.find((p) => (p as { domain: string }).domain === 'cedar.online')).toEqual({
      group_id: 'b',
      domain: 'cedar.online',
      domain_unicode: 'cedar.online',
      availability: 'available',
      price:
        'Registration 177.31 EUR (1 year, incl. taxes, normally 236.81 EUR); renewal 236.81 EUR (1 year)',
    });
    expect(previews.find((p) => (p as { domain: string }).domain === 'cedarwood.ai')).toMatchObject({
      price: 'Registration 166.58 EUR (2-10 years, incl. taxes); renewal 166.58 EUR (2-10 years)',
    });
  });

  it('logs carry counts only: no query, keyword, criteria or result', async () => {
    const res = await call(up, {
      requests: [{ query: 'zebrafinch', tlds: ['io'], relevance_criteria: 'zebrafinch songbird aviary' }],
    });
    expect(res.output!.results[0]!.results.length).toBeGreaterThan(0);
    const text = res.logs.join('\n');
    expect(res.logs.length).toBeGreaterThan(0);
    expect(JSON.parse(res.logs.at(-1)!)).toMatchObject({
      msg: 'domain search finished',
      groups: 1,
      max_in_flight: expect.any(Number),
    });
    for (const secret of ['zebrafinch', 'songbird', 'aviary']) expect(text).not.toContain(secret);
    // Upstream gets only the keyword, currency, country and language (plus fixed paging).
    const keys = new Set(up.sim.requests().flatMap((r) => Object.keys(r.params)));
    expect([...keys].sort()).toEqual([
      'country',
      'currency',
      'grid',
      'lang',
      'lock_sentence',
      'page',
      'per_page',
      'phases',
      'search',
      'source',
      'tlds',
    ]);
    // The transport mode is metadata: not a field of the output.
    expect(JSON.stringify(res.output)).not.toMatch(/"(via|transport)"/);
  });
});

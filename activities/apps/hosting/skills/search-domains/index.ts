/** The hosting app's domain search skill: its metadata and factory (see ./skill.ts). */
import { defineSkill, readOnlyCapabilities } from '../../../../registry/define.js';
import { createSearchDomainsSkill } from './skill.js';

export const searchDomains = defineSkill({
  id: 'search_domains',
  title: 'Search domains',
  description:
    'One to five independent domain searches per call. Each group takes a keyword or a full domain name, checks availability and registration/renewal quotes through the upstream shop, and returns selected domains plus the pool of checked candidates. See docs/domain-search.md.',
  capabilities: readOnlyCapabilities('sync'),
  anonymousAccess: 'inline',
  pricing: {
    creditsPerRequest: 1,
    notes: 'One credit per search group; the optional relevance decision is included.',
  },
  providers: ['shop', 'decision'],
  models: ['decision-v1-2026-01'],
  policy: 'upstream-search',
  primaryFields: ['query'],
  create: createSearchDomainsSkill,
});

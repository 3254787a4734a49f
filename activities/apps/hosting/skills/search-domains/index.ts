/** The hosting app's domain search skill: its metadata and factory (see ./skill.ts). */
import { defineSkill, readOnlyCapabilities } from '../../../../registry/define.js';
import { createSearchDomainsSkill } from './skill.js';

export const searchDomains = defineSkill({
  id: 'search_domains',
  title: 'Search domains',
  description:
    'Check whether domain names are free and what they cost, up to five searches at once. Each takes a keyword (names are suggested around it) or a full domain name, and answers the best names with their registration and renewal prices, plus every name that was checked.',
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

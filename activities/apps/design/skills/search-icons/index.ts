/** The design app's icon search skill: its metadata and factory (see ./skill.ts). */
import { defineSkill, readOnlyCapabilities } from '../../../../registry/define.js';
import { createSearchIconsSkill } from './skill.js';

export const searchIcons = defineSkill({
  id: 'search_icons',
  title: 'Search icons',
  description:
    'Find icons in public icon collections, up to five searches at once. Each result names the icon, its collection, license and author, with a safe SVG picture of it. By default only icons with permissive licenses are shown.',
  capabilities: readOnlyCapabilities('sync'),
  anonymousAccess: 'inline',
  pricing: {
    creditsPerRequest: 1,
    notes: 'One credit per search request; the optional relevance decision is included.',
  },
  providers: ['icons', 'decision'],
  models: ['decision-v1-2026-01'],
  policy: 'upstream-lookup',
  primaryFields: ['query'],
  // Every license, not only the permissive ones, is for approved client flows.
  restrictedOptions: [{ field: 'license_policy', value: 'all', scope: 'icons:all-licenses' }],
  create: createSearchIconsSkill,
});

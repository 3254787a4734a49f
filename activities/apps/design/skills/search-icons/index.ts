/** The design app's icon search skill: its metadata and factory (see ./skill.ts). */
import { defineSkill, readOnlyCapabilities } from '../../../../registry/define.js';
import { createSearchIconsSkill } from './skill.js';

export const searchIcons = defineSkill({
  id: 'search_icons',
  title: 'Search icons',
  description:
    "One to five icon searches per call over public icon collections (the Iconify-compatible upstream at ICON_URL, or the offline sets shipped with the service). Results are metadata only: id, collection, license, author, size and the service's own sanitised SVG URL. The default license filter shows only permissive licenses. See docs/design-icons.md.",
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

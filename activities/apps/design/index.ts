/**
 * What modules outside this folder may use of the design app besides its definition (`app.ts`):
 * its bundled offline icon sets, which the icon simulator serves over HTTP as the upstream would,
 * the icon SVG routes with their configuration slice, which the icon benchmark measures, and the
 * icon relevance ranker, which the shared ranker's test drives.
 * Modules outside this folder import only this file and `app.ts` (a lint rule in
 * eslint.config.js).
 */
export { createOfflineProvider, offlineIndex, searchOffline } from './upstream/offline.js';
export { designConfig } from './config.js';
export { iconRoutes } from './routes.js';
export { createRelevanceRanker } from './skills/search-icons/relevance.js';

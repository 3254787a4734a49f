/**
 * What modules outside this folder may use of the hosting app besides its definition (`app.ts`):
 * the parts the domain search benchmark and the fault campaign (test/) build on, so they measure
 * and break the real skill. Modules outside this folder import only this file and `app.ts` (a
 * lint rule in eslint.config.js).
 */
export { hostingConfig, type HostingAppConfig } from './config.js';
export { searchDomains } from './skills/search-domains/index.js';
export { createSearchDomainsSkill } from './skills/search-domains/skill.js';
export type { SearchDiagnostics } from './skills/search-domains/search-domains.js';
export { MAX_IN_FLIGHT_OPERATIONS } from './skills/search-domains/operation-limiter.js';
export { RETRY_MARGIN_MS, TRANSIENT_BACKOFF_MS } from './skills/search-domains/fallback.js';

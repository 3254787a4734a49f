/**
 * What the rest of the platform may use of the encyclopedia app: `@encyclopedia:` references in
 * chat messages and in decide questions are resolved by the app's one service of the process
 * (its outbound budget, concurrency and cache), which the composition root takes from the
 * registry (`registry.servicesOf(encyclopediaApp)`) and hands on. Modules outside this folder
 * import only this file and `app.ts`.
 */
import type { ReferenceResolver } from './upstream/references.js';
import type { EncyclopediaService } from './upstream/service.js';

export type { EncyclopediaService, ReferenceResolver };
export { encyclopediaApp } from './app.js';
export { referenceResolver } from './upstream/references.js';

/** Article summaries by reference, for the decide step's source context. */
export type EncyclopediaSummaries = Pick<EncyclopediaService, 'summary'>;

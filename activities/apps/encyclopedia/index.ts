/**
 * What the rest of the platform may use of the encyclopedia app: `@encyclopedia:` references in
 * chat messages and in decide questions are resolved by this app's one service per process (its
 * outbound budget, concurrency and cache). Modules outside this folder import only this file and
 * `app.ts`.
 */
import type { Config } from '../../../lib/config.js';
import { encyclopediaConfig } from './config.js';
import { referenceResolver, type ReferenceResolver } from './upstream/references.js';
import { encyclopediaFor, type EncyclopediaService } from './upstream/service.js';

export type { ReferenceResolver };

/** Article summaries by reference, for the decide step's source context. */
export type EncyclopediaSummaries = Pick<EncyclopediaService, 'summary'>;

/** The process's encyclopedia service for `config`, seen as reference resolution. */
export function encyclopediaReferences(config: Config): {
  resolve: ReferenceResolver;
  summaries: EncyclopediaSummaries;
} {
  const service = encyclopediaFor(encyclopediaConfig(config));
  return { resolve: referenceResolver(service), summaries: service };
}

/**
 * Our own platform failed while a domain search counted a shop request (the store that holds
 * the provider limits could not be reached): nothing was sent. That is not the shop's failure
 * and no group reports it as one: it passes through the group machinery unchanged, and the call
 * ends with the platform's own error (`failure`), which the activity boundary classifies (an
 * unreachable store is SERVICE_UNAVAILABLE, which Temporal retries).
 */
export class PlatformFailure extends Error {
  constructor(readonly failure: unknown) {
    super('The platform could not count a shop request.');
    this.name = 'PlatformFailure';
  }
}

/**
 * Versioned icon URLs: `…/{prefix}/{name}.svg?v=<token>`, where the token names the collection's
 * version at the provider (the offline sets' package version) and the sanitiser's revision, so it
 * changes whenever the served bytes may. The SVG route answers a URL carrying the current token
 * with `Cache-Control: public, max-age=31536000, immutable`; any other URL keeps the one-day
 * cache. A provider without versions (an upstream at ICON_URL) gives no token.
 */
import { createHash } from 'node:crypto';
import { SVG_SANITISER_REVISION } from '../../../lib/sanitize/svg.js';
import type { IconProvider } from './upstream/provider.js';

/** Versioned URLs are kept for a year and never revalidated. */
export const ICON_IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The token's syntax (the route refuses anything else as a bad parameter). */
export const ICON_VERSION_PATTERN = /^[A-Za-z0-9_-]{12}$/u;

/** The current token of a collection, or undefined when its provider has no versions. */
export function iconVersion(provider: IconProvider, prefix: string): string | undefined {
  const version = provider.version?.(prefix);
  if (version === undefined) return undefined;
  return createHash('sha256')
    .update(`${prefix}@${version}#sanitiser-${SVG_SANITISER_REVISION}`)
    .digest('base64url')
    .slice(0, 12);
}

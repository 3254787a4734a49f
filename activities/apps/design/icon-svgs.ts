/**
 * Serving one icon as a sanitised SVG: provider (offline sets or ICON_URL), the shared
 * sanitiser (lib/sanitize/svg.ts), and a bounded LRU-by-bytes cache of the sanitised bytes.
 * Content that cannot be made safe is UNSAFE_CONTENT (502), never the raw SVG.
 */
import { createHash } from 'node:crypto';
import { iconVersion } from './icon-version.js';
import { ByteLru } from '../../../lib/cache/byte-lru.js';
import type { DesignConfig } from '../../../lib/config.js';
import { errors } from '../../../lib/errors/errors.js';
import { SkillflowError } from '../../../lib/errors/skillflow-error.js';
import { recordCacheLookup } from '../../../lib/metrics/upstream.js';
import { sanitizeSvg, UnsafeSvgError } from '../../../lib/sanitize/svg.js';
import type { Store } from '../../../lib/store/db.js';
import { POLICY_PROFILES } from '../../policy.js';
import { iconProviderFor, type IconProvider, type SvgOptions } from './upstream/index.js';

/** Longest a cold request waits for the provider. */
export const ICON_SVG_TIMEOUT_MS = 10_000;

export interface ServedSvg {
  /** The sanitised SVG as UTF-8 bytes, sent as they are. */
  body: Buffer;
  etag: string;
  bytes: number;
  /** The collection's current version token (icon-version.ts), when its provider has one. */
  version: string | undefined;
}

export class IconSvgService {
  private readonly cache: ByteLru<ServedSvg>;
  private readonly provider: IconProvider;

  /** `store` shares the icon upstream's Retry-After gate with every process on it. */
  constructor(
    config: Pick<DesignConfig, 'ICON_URL' | 'ICON_SVG_CACHE_BYTES'>,
    provider?: IconProvider,
    store?: Store,
  ) {
    this.provider =
      provider ?? iconProviderFor(config, POLICY_PROFILES['upstream-lookup'].deadlines.idleTimeoutMs, store);
    this.cache = new ByteLru(config.ICON_SVG_CACHE_BYTES);
  }

  /** The sanitised SVG, from the cache or the provider. */
  async get(prefix: string, name: string, options: SvgOptions): Promise<ServedSvg> {
    const key = `${prefix}:${name}:${options.height}:${options.color ?? ''}`;
    const cached = this.cache.get(key);
    recordCacheLookup('icons', cached !== undefined);
    if (cached) return cached;
    let raw: string | undefined;
    try {
      raw = await this.provider.svg(prefix, name, options, {
        signal: AbortSignal.timeout(ICON_SVG_TIMEOUT_MS),
      });
    } catch (err) {
      if (err instanceof SkillflowError) throw err;
      throw errors.upstreamUnavailable({ provider: 'icons', message: 'The icon upstream is unavailable.' });
    }
    if (raw === undefined) throw new SkillflowError('ICON_NOT_FOUND', 'No icon with this prefix and name.');
    let clean: string;
    try {
      clean = sanitizeSvg(raw);
    } catch (err) {
      if (!(err instanceof UnsafeSvgError)) throw err;
      throw errors.unsafeContent({
        provider: 'icons',
        message: 'The icon could not be made safe, so it is not served.',
      });
    }
    const body = Buffer.from(clean, 'utf8');
    const served = {
      body,
      bytes: body.length,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      version: iconVersion(this.provider, prefix),
    };
    this.cache.set(key, served);
    return served;
  }
}

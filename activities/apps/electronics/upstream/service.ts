/**
 * The power-design service a skill uses: the upstream client (./client.ts), the mapping to the
 * normalised designs (./mapping.ts) and the search cache. The cache key is the SHA-256 of the
 * normalised requirement payload (defaults applied, numbers normalised,
 * keys sorted), so `vout: [5]` and `vout: [5.0]` share an entry. Entries live in the platform
 * store (lib/store/owners/power-cache.ts) with POWER_CACHE_TTL_SECONDS, or in process memory
 * when a test gives no store. The cached data is the upstream's public engineering data, not
 * user text. Cache lookups are counted in the upstream metrics.
 */
import { createHash } from 'node:crypto';
import { TtlCache } from '../../../../lib/cache/ttl-cache.js';
import type { ElectronicsConfig } from '../../../../lib/config.js';
import { errors } from '../../../../lib/errors/errors.js';
import { recordCacheLookup } from '../../../../lib/metrics/upstream.js';
import { sanitizeSvg, UnsafeSvgError } from '../../../../lib/sanitize/svg.js';
import type { Store } from '../../../../lib/store/db.js';
import { readPowerCache, writePowerCache } from '../../../../lib/store/owners/power-cache.js';
import type { SkillDeadlines } from '../../../policy.js';
import {
  createPowerClient,
  type PowerCallContext,
  type PowerClient,
  type PowerSearchPayload,
} from './client.js';
import {
  PowerSolutionSchema,
  SCHEMATIC_NOTE,
  type Part,
  type PowerSolution,
  type Schematic,
} from './designs.js';
import { toPart, toSolutions } from './mapping.js';

/** Upper bound of solutions kept per requirement (a call returns at most 20 results). */
export const MAX_CACHED_SOLUTIONS = 20;

/** Numbers in one canonical form: 5, 5.0 and "5" agree; float noise past 12 digits is dropped. */
const canonical = (n: number) => Number(n.toPrecision(12));

/** The upstream body for a requirement, normalised; keys in sorted order. */
export function normalisePayload(p: PowerSearchPayload): PowerSearchPayload {
  return {
    ambientTemp: canonical(p.ambientTemp),
    iout: p.iout.map(canonical),
    isIsolated: p.isIsolated,
    optimizationSetting: p.optimizationSetting,
    powerSupply: p.powerSupply,
    vinMax: canonical(p.vinMax),
    vinMin: canonical(p.vinMin),
    vout: p.vout.map(canonical),
  };
}

/** The cache key of a normalised payload. */
export function payloadKey(p: PowerSearchPayload): string {
  return createHash('sha256')
    .update(JSON.stringify(normalisePayload(p)))
    .digest('hex');
}

export interface PowerService {
  /** Ranked solutions (at most {@link MAX_CACHED_SOLUTIONS}) and whether the cache served them. */
  search(
    payload: PowerSearchPayload,
    ctx: PowerCallContext,
  ): Promise<{ solutions: PowerSolution[]; cached: boolean }>;
  /** The sanitised schematic; UNSAFE_CONTENT when it cannot be made safe. */
  schematic(solutionId: string, ctx: PowerCallContext): Promise<Schematic>;
  parts(solutionId: string, ctx: PowerCallContext): Promise<Part[]>;
}

function titleOf(svg: string): string | null {
  const m = /<title>([^<]{1,200})<\/title>/u.exec(svg);
  return m?.[1]?.trim() || null;
}

export function createPowerService(
  config: ElectronicsConfig,
  deadlines: SkillDeadlines,
  store: Store | undefined,
  client?: PowerClient,
): PowerService {
  const upstream =
    client ??
    (config.POWER_URL
      ? createPowerClient({ baseUrl: config.POWER_URL, timeoutMs: deadlines.idleTimeoutMs })
      : undefined);
  const ttlMs = config.POWER_CACHE_TTL_SECONDS * 1000;
  const memory = new TtlCache<PowerSolution[]>({ maxEntries: 500, ttlMs: Math.max(1, ttlMs) });
  const need = (): PowerClient => {
    if (!upstream)
      throw errors.upstreamUnavailable({
        provider: 'power',
        message: 'The power upstream is not configured (POWER_URL).',
      });
    return upstream;
  };

  async function cached(key: string): Promise<PowerSolution[] | undefined> {
    if (ttlMs === 0) return undefined;
    const raw = store ? await readPowerCache(store, key, new Date()) : memory.get(key);
    const parsed = PowerSolutionSchema.array().safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }

  return {
    async search(payload, ctx) {
      const key = payloadKey(payload);
      const hit = await cached(key);
      recordCacheLookup('power', hit !== undefined);
      if (hit) return { solutions: hit, cached: true };
      const wire = await need().search(normalisePayload(payload), ctx);
      const solutions = toSolutions(wire, config.POWER_PRODUCT_ORIGIN, MAX_CACHED_SOLUTIONS);
      if (ttlMs > 0) {
        const now = new Date();
        if (store)
          await writePowerCache(store, {
            key,
            value: solutions,
            expiresAt: new Date(now.getTime() + ttlMs),
            now,
          });
        else memory.set(key, solutions);
      }
      return { solutions, cached: false };
    },
    async schematic(solutionId, ctx) {
      const raw = await need().schematic(solutionId, ctx);
      let svg: string;
      try {
        svg = sanitizeSvg(raw);
      } catch (err) {
        if (!(err instanceof UnsafeSvgError)) throw err;
        throw errors.unsafeContent({
          provider: 'power',
          message: 'The schematic could not be made safe to show.',
          details: { reason: err.reason },
        });
      }
      return {
        solution_id: solutionId,
        content_type: 'image/svg+xml',
        svg,
        title: titleOf(svg),
        note: SCHEMATIC_NOTE,
      };
    },
    async parts(solutionId, ctx) {
      return (await need().parts(solutionId, ctx)).map(toPart);
    },
  };
}

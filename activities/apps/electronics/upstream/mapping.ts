/**
 * Upstream wire shapes → the normalised designs of ./designs.ts. The only place that knows the
 * upstream's field names.
 */
import type { Part, PowerSolution } from './designs.js';
import type { WireBomComponent, WireSolution } from './wire.js';

const BASE_PN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The manufacturer's product page of a base product id on the fixed configured origin; the
 * origin itself when the id is not a plain product id.
 */
export function productUrl(origin: string, basePn: string): string {
  const base = origin.replace(/\/+$/u, '');
  return BASE_PN.test(basePn) ? `${base}/product/${encodeURIComponent(basePn)}` : base;
}

/** Solutions ordered by rank (never by array order), at most `max`. */
export function toSolutions(
  wire: readonly WireSolution[],
  productOrigin: string,
  max: number,
): PowerSolution[] {
  return [...wire]
    .sort((a, b) => a.rank - b.rank)
    .slice(0, max)
    .map((s) => ({
      id: s.id,
      rank: s.rank,
      considerations: s.considerations,
      part_number: s.info.device.partNumber,
      base_product_id: s.info.device.basePn,
      topology: s.info.device.topology,
      bom_cost_usd: s.info.bomCost,
      efficiency: Math.min(1, Math.max(0, s.info.efficiency)),
      footprint_mm2: s.info.footprint,
      frequency_hz: s.info.frequency,
      temperature_c: s.info.temperature,
      source_url: productUrl(productOrigin, s.info.device.basePn),
    }));
}

const str = (v: string | null | undefined) => (v === undefined || v === null || v === '' ? null : v);

/** One parts-list line. */
export function toPart(c: WireBomComponent): Part {
  return {
    reference: str(c.refDes ?? c.designator),
    part: str(c.partNumber ?? c.mfrPartNumber),
    description: str(c.description),
    quantity: c.qty ?? c.quantity ?? 1,
    value: str(c.value),
    manufacturer: str(c.manufacturer ?? c.mfr),
    limits: {
      voltage_v: c.voltageRating ?? null,
      current_a: c.currentRating ?? null,
      power_w: c.powerRating ?? null,
      tolerance: str(c.tolerance),
    },
  };
}

/**
 * Short previews for a quick REST response: one per selected domain, in group
 * order, with a one-line price summary. The summary only quotes tiers as returned: it never
 * computes a per-year price and never shows a registration price as the renewal price.
 */
import type { SearchDomainsOutput } from './output.js';
import type { QuoteTier } from './quotes.js';
import type { DomainResult } from './result.js';

/** One preview line. */
export interface DomainPreview {
  /** The request id of the group, or null. */
  group_id: string | null;
  domain: string;
  domain_unicode: string;
  availability: DomainResult['availability'];
  /** e.g. "Registration 13.09 EUR (1-10 years, incl. taxes); renewal 17.85 EUR (1-10 years)", or null. */
  price: string | null;
}

function amount(tier: QuoteTier, currency: string): string {
  return `${tier.price_after_taxes.toFixed(2)} ${currency}`;
}

/** The one-line price summary of a result, or null when no price applies. */
export function priceSummary(result: DomainResult): string | null {
  const { currency, pricing_status: status } = result;
  if (status === 'currency_mismatch') return 'Price unknown (quoted in another currency).';
  if (status === 'missing' || status === 'failed') return 'Price unknown.';
  const [registration] = result.registration_tiers;
  const [renewal] = result.renewal_tiers;
  if (status !== 'priced' || currency === null || (!registration && !renewal)) return null;
  const taxes = result.taxes.length > 0 ? ', incl. taxes' : '';
  const parts: string[] = [];
  if (registration) {
    const normal =
      registration.normal_price_after_taxes !== undefined && registration.discount
        ? `, normally ${registration.normal_price_after_taxes.toFixed(2)} ${currency}`
        : '';
    parts.push(`Registration ${amount(registration, currency)} (${registration.term}${taxes}${normal})`);
  }
  if (renewal) parts.push(`renewal ${amount(renewal, currency)} (${renewal.term})`);
  return parts.join('; ');
}

/** One preview per selected domain across groups, in request order. */
export function buildPreviews(output: SearchDomainsOutput): DomainPreview[] {
  return output.results.flatMap((group) =>
    group.results.map((r) => ({
      group_id: group.id,
      domain: r.domain,
      domain_unicode: r.domain_unicode,
      availability: r.availability,
      price: priceSummary(r),
    })),
  );
}

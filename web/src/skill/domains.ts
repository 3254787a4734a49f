/** Rows of the domains table (pure): availability wording and the price line per name. */

/** Words for the output's `availability` values. */
export const AVAILABILITY_TEXT: Readonly<Record<string, string>> = {
  available: 'available',
  unavailable: 'in use',
  unknown: 'unknown',
};

export interface DomainRow {
  domain: string;
  availability: string;
  /** `available` | `unavailable` | `unknown` | other: for the row's class. */
  status: string;
  price: string;
  premium: boolean;
}

type Obj = Record<string, unknown>;

/**
 * The rows of each request's group. The price line is the API's own (`previews[].price`, one
 * preview per selected name in request order), so the page never recomputes prices.
 */
export function domainRows(groups: Obj[], previews: unknown): DomainRow[][] {
  const prices = new Map<string, string>();
  for (const p of Array.isArray(previews) ? previews : []) {
    const preview = p as Obj;
    if (typeof preview.domain === 'string' && typeof preview.price === 'string')
      prices.set(preview.domain, preview.price);
  }
  return groups.map((g) =>
    (Array.isArray(g.results) ? (g.results as Obj[]) : []).map((r) => {
      const status = String(r.availability);
      const domain = String(r.domain_unicode ?? r.domain);
      return {
        domain,
        status,
        availability: AVAILABILITY_TEXT[status] ?? status,
        price: prices.get(String(r.domain)) ?? '',
        premium: r.premium === true,
      };
    }),
  );
}

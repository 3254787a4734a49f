/**
 * Canonical domain names and the local checks that run before any shop call.
 * The canonical form is the lower-case ASCII (punycode) spelling without a trailing dot; IDN
 * spellings from different events join on it.
 */
import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The canonical ASCII form of a domain name, or undefined when it is not a valid hostname
 * (empty, whitespace, empty labels, bad characters, too long).
 */
export function canonicalFqdn(name: string): string | undefined {
  const trimmed = name.trim().replace(/\.$/, '');
  if (!trimmed || /\s/.test(trimmed)) return undefined;
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (!ascii || ascii.length > 253) return undefined;
  return ascii.split('.').every((l) => LABEL.test(l)) ? ascii : undefined;
}

/** True when two spellings name the same domain (IDN, case and trailing dot insensitive). */
export function sameFqdn(a: string, b: string): boolean {
  const ca = canonicalFqdn(a);
  return ca !== undefined && ca === canonicalFqdn(b);
}

/**
 * A full domain name for an exact lookup: canonical, with at least two labels. Undefined when
 * the name is not a full FQDN.
 */
export function lookupName(name: string): string | undefined {
  const c = canonicalFqdn(name);
  return c && c.includes('.') ? c : undefined;
}

/**
 * One suffix for a suggestion request (`com`, `.co.uk`, `ai`), canonical and without the
 * leading dot. A comma list or anything else is rejected: a comma list stalls the shop.
 */
export function suffixParam(tld: string): string | undefined {
  const t = tld.trim().replace(/^\./, '');
  if (!t || t.includes(',')) return undefined;
  return canonicalFqdn(t);
}

/** Currency (ISO 4217, three letters) and tax country (two letters), upper-cased, or undefined. */
export function currencyParam(currency: string): string | undefined {
  const c = currency.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(c) ? c : undefined;
}

export function countryParam(country: string): string | undefined {
  const c = country.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(c) ? c : undefined;
}

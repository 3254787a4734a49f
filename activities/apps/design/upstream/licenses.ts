/**
 * The default license filter of icon search: MIT, ISC, Apache-2.0,
 * any BSD variant, CC0 and CC0-1.0, Unlicense, OFL-1.1. SPDX ids compare case-insensitively; a
 * missing or unknown license is hidden unless `license_policy` is `all`.
 */
export const LICENSE_POLICIES = ['permissive', 'all'] as const;
export type LicensePolicy = (typeof LICENSE_POLICIES)[number];

const PERMISSIVE = new Set(['mit', 'isc', 'apache-2.0', 'cc0', 'cc0-1.0', 'unlicense', 'ofl-1.1']);

/** True when an icon under this SPDX id may be shown under `policy`. */
export function licenseAllowed(spdx: string | undefined, policy: LicensePolicy): boolean {
  if (policy === 'all') return true;
  const id = spdx?.trim().toLowerCase();
  if (!id) return false;
  return PERMISSIVE.has(id) || /^0?bsd(-[a-z0-9.-]+)?$/u.test(id);
}

/** Test constants shared by tests and by helper processes (no vitest imports here). */
import { parseKeyring, type Keyring } from '../../lib/crypto/keyring.js';
import type { ResolveHost } from '../../lib/net/webhook.js';

/** A fixed test key (never used outside tests); recorded histories are encrypted with it. */
export const TEST_KEYRING: Keyring = parseKeyring('test:' + Buffer.alloc(32, 7).toString('base64'), 'env');

/** Test-only apps (echo, metered, broken) that exercise the skills framework without an upstream. */
export { FIXTURE_APPS } from '../fixtures/apps/index.js';

/**
 * The resolver of every test: a fixed table, so no test asks real DNS. Public names map to
 * addresses that are never connected to (registration only); the rest exercise the refusals.
 */
export const TEST_HOSTS: Readonly<Record<string, string[]>> = {
  'hooks.example.com': ['93.184.215.14'],
  localhost: ['127.0.0.1'],
  'loopback.example.test': ['127.0.0.1'],
  'internal.example.test': ['10.0.0.5'],
  'mixed.example.test': ['93.184.215.14', '192.168.1.20'],
  'metadata.example.test': ['169.254.169.254'],
  'mapped.example.test': ['::ffff:10.0.0.5'],
  'ula.example.test': ['fd00:ec2::254'],
};

/** Resolves from {@link TEST_HOSTS}; unknown names fail like NXDOMAIN. */
export const TEST_RESOLVE: ResolveHost = (hostname) => {
  const addresses = TEST_HOSTS[hostname.toLowerCase()];
  if (!addresses) return Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
  return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
};

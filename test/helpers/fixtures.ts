/** Test constants shared by tests and by helper processes (no vitest imports here). */
import path from 'node:path';
import { parseKeyring, type Keyring } from '../../lib/crypto/keyring.js';

/** A fixed test key (never used outside tests); recorded histories are encrypted with it. */
export const TEST_KEYRING: Keyring = parseKeyring('test:' + Buffer.alloc(32, 7).toString('base64'), 'env');

/** Test-only apps (echo) that exercise the skills framework without an upstream. */
export const FIXTURE_APPS_DIR = path.resolve(import.meta.dirname, '../fixtures/apps');

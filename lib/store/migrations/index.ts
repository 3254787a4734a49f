/**
 * Versioned migrations, applied in name order. Never edit a migration that has shipped: add a
 * new one. Each is plain PostgreSQL SQL that also runs on PGlite.
 */
import type { Migration, MigrationProvider } from 'kysely';
import { m0001PlatformBase } from './0001-platform-base.js';

const migrations: Record<string, Migration> = {
  '0001-platform-base': m0001PlatformBase,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

/**
 * The limit settings every process sharing the platform store must agree on. Each process reads
 * its limits from its own environment but charges counters (and reads state) every process
 * shares, so two replicas with different values would enforce two ceilings on one counter. At
 * boot each process records the values the store does not hold yet (the first process's win)
 * and compares its own with the recorded ones: on PostgreSQL a process whose values differ
 * refuses to start, naming each variable that differs. To change a limit deliberately, set the
 * new value in every process's environment, run `npm run limits:apply` with that environment
 * (it records the environment's values) and restart the processes. An embedded PGlite store
 * serves one process only, so there a restart with new values records them (and logs which).
 *
 * The variables: every one of the `limits` slice (tier, address, hook, provider, owner-share,
 * guest credit, owner quota and queue limits) and the apps' limits kept in the store (the
 * encyclopedia's per-key, per-address, outbound and concurrency limits, the icon SVG limit).
 */
import { CONFIG_SLICES, flattenConfig, type Config, type Variable } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/db.js';
import {
  recordMissingSettings,
  replaceSettings,
  type RecordedSetting,
} from '../store/owners/limit-settings.js';

/** Every limit variable compared against a shared counter or shared state. */
export const SHARED_LIMIT_VARIABLES: readonly Variable[] = [
  ...CONFIG_SLICES.limits,
  'ICON_SVG_RATE_LIMIT_PER_MINUTE',
  'ENCYCLOPEDIA_OWNER_PER_MINUTE',
  'ENCYCLOPEDIA_IP_PER_MINUTE',
  'ENCYCLOPEDIA_OUTBOUND_PER_MINUTE',
  'ENCYCLOPEDIA_MAX_CONCURRENCY',
];

/** One variable whose value here differs from the recorded one (`recorded` absent: new). */
export interface SettingDifference {
  name: string;
  recorded: string | undefined;
  current: string;
}

/** This process's value of every shared limit variable, as recorded. */
export function limitSettings(config: Config): RecordedSetting[] {
  const flat = flattenConfig(config) as Record<string, unknown>;
  return SHARED_LIMIT_VARIABLES.map((name) => ({ name, value: String(flat[name]) }));
}

function differences(
  settings: readonly RecordedSetting[],
  recorded: Map<string, string>,
): SettingDifference[] {
  return settings
    .filter((s) => recorded.get(s.name) !== s.value)
    .map((s) => ({ name: s.name, recorded: recorded.get(s.name), current: s.value }));
}

/** Thrown at boot when this process's limits differ from those every other process enforces. */
export class LimitSettingsMismatch extends Error {
  constructor(readonly differing: readonly SettingDifference[]) {
    super(
      'The limit settings of this process differ from those recorded in the platform store, which ' +
        'every process on it enforces: ' +
        differing.map((d) => `${d.name} (recorded ${d.recorded ?? 'none'}, here ${d.current})`).join(', ') +
        '. To change them deliberately, set the new values in every process’s environment, run ' +
        '`npm run limits:apply` with that environment, then restart the processes.',
    );
    this.name = 'LimitSettingsMismatch';
  }
}

/**
 * Records the values the store does not hold yet and refuses (throws
 * {@link LimitSettingsMismatch}) when this process's differ from the recorded ones; on PGlite
 * (one process per store) it records the new values instead and logs the variables.
 */
export async function checkLimitSettings(store: Store, config: Config, logger?: Logger): Promise<void> {
  const settings = limitSettings(config);
  const differing = differences(settings, await recordMissingSettings(store, settings));
  if (differing.length === 0) return;
  if (store.engine !== 'pglite') throw new LimitSettingsMismatch(differing);
  await replaceSettings(store, settings);
  logger?.info(
    { variables: differing.map((d) => d.name) },
    'limit settings changed; recorded the new values',
  );
}

/** `npm run limits:apply`: records this environment's values; answers what changed. */
export async function applyLimitSettings(store: Store, config: Config): Promise<SettingDifference[]> {
  const settings = limitSettings(config);
  return differences(settings, await replaceSettings(store, settings));
}

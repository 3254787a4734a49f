/**
 * `skillflow keys create|list|revoke`. `create` prints the new token once, with a warning;
 * no other command ever prints a token.
 */
import type { Command } from 'commander';
import type { ApiKey, KeyTier } from '../../sdk/index.js';
import type { CliContext } from '../context.js';
import { CliError, EXIT, err, out, printJson } from '../output.js';

const TIERS: KeyTier[] = ['free', 'standard', 'pro'];

/** `a, b,,c` → `['a', 'b', 'c']`. */
export function parseScopes(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Registers `keys`. */
export function registerKeys(
  program: Command,
  context: () => CliContext,
  run: (fn: () => Promise<number>) => Promise<void>,
): void {
  const keys = program.command('keys').description('API keys (needs a key with the "keys" scope)');

  keys
    .command('create')
    .description('Create an API key; its token is printed once')
    .requiredOption('--name <name>', 'a label for the key')
    .requiredOption('--scopes <a,b>', 'comma-separated: *, workflows, keys, app:<app>, skill:<app>.<skill>')
    .option('--tier <tier>', `rate-limit tier: ${TIERS.join(', ')}`)
    .option('--json', 'print the REST body (token included) as JSON')
    .option(
      '-q, --quiet',
      'print only the token (for scripts: export SKILLFLOW_API_KEY=$(skillflow keys create ... -q))',
    )
    .action((flags: { name: string; scopes: string; tier?: string; json?: boolean; quiet?: boolean }) =>
      run(async () => {
        if (flags.json && flags.quiet)
          throw new CliError('--json and --quiet exclude each other.', EXIT.USAGE, 'USAGE');
        const scopes = parseScopes(flags.scopes);
        if (scopes.length === 0)
          throw new CliError('--scopes needs at least one scope.', EXIT.USAGE, 'USAGE');
        if (flags.tier !== undefined && !TIERS.includes(flags.tier as KeyTier)) {
          throw new CliError(`--tier must be one of ${TIERS.join(', ')}.`, EXIT.USAGE, 'USAGE');
        }
        const key = await context().client.keys.create({
          name: flags.name,
          scopes,
          ...(flags.tier ? { tier: flags.tier as KeyTier } : {}),
        });
        err('warning: this is the only time the token is shown; store it now (e.g. in SKILLFLOW_API_KEY).');
        if (flags.json) printJson(key);
        else if (flags.quiet) out(key.token);
        else {
          out(`created key ${key.id} (${key.name}; scopes ${key.scopes.join(',')}; tier ${key.tier})`);
          out(`token: ${key.token}`);
        }
        return EXIT.OK;
      }),
    );

  keys
    .command('list')
    .description('List API keys with their status and last use, to the minute (never their tokens)')
    .option('--json', 'print the REST body { keys: [...] }')
    .action((flags: { json?: boolean }) =>
      run(async () => {
        // Defensive: a token must never reach the terminal from a listing.
        const list = (await context().client.keys.list()).map(
          ({ token: _token, ...k }: ApiKey & { token?: unknown }) => k,
        );
        if (flags.json) printJson({ keys: list });
        else if (list.length === 0) out('no API keys');
        else
          for (const k of list) {
            const status = k.revoked_at ? 'revoked' : 'active';
            const used = k.last_used_at
              ? `last used ${k.last_used_at.slice(0, 16).replace('T', ' ')} UTC`
              : 'never used';
            out(
              `${k.id}  ${status.padEnd(7)}  ${k.tier.padEnd(8)}  ${k.scopes.join(',').padEnd(20)}  ${k.name}  (${used})`,
            );
          }
        return EXIT.OK;
      }),
    );

  keys
    .command('revoke <key_id>')
    .description('Revoke an API key')
    .action((keyId: string) =>
      run(async () => {
        await context().client.keys.revoke(keyId);
        out(`revoked ${keyId}`);
        return EXIT.OK;
      }),
    );
}

/** The arguments of `npm run keys:create`: what is accepted, and each refusal with its message. */
import { describe, expect, it } from 'vitest';
import { parseCreateKeyArgs } from './create-key-args.js';

describe('parseCreateKeyArgs', () => {
  it('accepts an owner, a name and a comma list of scopes; the tier defaults to standard', () => {
    expect(
      parseCreateKeyArgs(['--owner', 'acme', '--name', ' ci ', '--scopes', 'workflows, app:echo']),
    ).toEqual({
      ok: true,
      args: { owner: 'acme', name: 'ci', scopes: ['workflows', 'app:echo'], tier: 'standard' },
    });
    expect(parseCreateKeyArgs(['--owner=acme', '--name=ops', '--scopes=*', '--tier=pro'])).toEqual({
      ok: true,
      args: { owner: 'acme', name: 'ops', scopes: ['*'], tier: 'pro' },
    });
  });

  it('names each bad option and its rule, never the value', () => {
    expect(parseCreateKeyArgs(['--owner', 'a b', '--scopes', 'workflows,BAD', '--tier', 'gold'])).toEqual({
      ok: false,
      problems: [
        '--owner: must be 1 to 64 letters, digits, _ or -',
        '--name: is required',
        '--scopes (item 2): must be *, workflows, keys, admin, icons:all-licenses, app:<app_id> or skill:<app_id>.<skill_id>',
        '--tier: Invalid option: expected one of "free"|"standard"|"pro"',
      ],
    });
    expect(parseCreateKeyArgs(['--owner', 'acme', '--name', 'x', '--scopes', 'keys,keys'])).toEqual({
      ok: false,
      problems: ['--scopes: must not repeat a scope'],
    });
    expect(parseCreateKeyArgs(['--owner', 'acme', '--name', 'x', '--bogus', 'y'])).toEqual({
      ok: false,
      problems: ['unknown option'],
    });
  });

  it('refuses the admin scope (operator keys come from keys:admin)', () => {
    expect(parseCreateKeyArgs(['--owner', 'acme', '--name', 'x', '--scopes', 'workflows,admin'])).toEqual({
      ok: false,
      problems: ['--scopes: must not include admin (npm run keys:admin makes operator keys)'],
    });
  });
});

/**
 * The arguments of `npm run keys:create -- --owner <id> --name <name> --scopes <list> [--tier <tier>]`,
 * checked with zod. `admin` is refused here: operator keys come from `npm run keys:admin`.
 * Messages name the option and its rule, never the value given.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { KeyNameSchema, ScopeSchema, TIERS } from '../lib/keys.js';

/** The options, as parseArgs gives them; `--scopes` is one comma list. */
export const CreateKeyArgsSchema = z.object({
  owner: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'),
  name: KeyNameSchema,
  scopes: z
    .string()
    .transform((list) => list.split(',').map((s) => s.trim()))
    .pipe(
      z
        .array(ScopeSchema)
        .min(1)
        .max(20)
        .refine((s) => new Set(s).size === s.length, 'must not repeat a scope')
        .refine(
          (s) => !s.includes('admin'),
          'must not include admin (npm run keys:admin makes operator keys)',
        ),
    ),
  tier: z.enum(TIERS).default('standard'),
});
export type CreateKeyArgs = z.infer<typeof CreateKeyArgsSchema>;

/** Printed after the problems of bad arguments. */
export const CREATE_KEY_USAGE =
  'usage: npm run keys:create -- --owner <owner id> --name <name> --scopes <scope,scope,...> [--tier free|standard|pro]';

/** The parsed arguments, or the problems to print (one per line, no value quoted). */
export function parseCreateKeyArgs(
  argv: string[],
): { ok: true; args: CreateKeyArgs } | { ok: false; problems: string[] } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        owner: { type: 'string' },
        name: { type: 'string' },
        scopes: { type: 'string' },
        tier: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    const code = (err as { code?: string }).code;
    return {
      ok: false,
      problems: [code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 'unknown option' : 'malformed arguments'],
    };
  }
  const parsed = CreateKeyArgsSchema.safeParse(values);
  if (parsed.success) return { ok: true, args: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((i) => {
      const [option, index] = i.path;
      return `--${String(option)}${index === undefined ? '' : ` (item ${Number(index) + 1})`}: ${
        i.code === 'invalid_type' && i.input === undefined ? 'is required' : i.message
      }`;
    }),
  };
}

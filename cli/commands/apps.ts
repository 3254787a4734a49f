/**
 * `skillflow apps <app> <skill> --input <json|@file> [--json]`: calls
 * POST /v1/apps/{app}/skills/{skill}. With `--json` stdout is exactly the REST body (the same
 * grouped shape as the API and the SDK); otherwise the previews as a table and the warnings.
 */
import type { Command } from 'commander';
import { suggestNames } from '../../definitions/suggest.js';
import { isCompleted, SkillflowApiError, type SkillCallResponse } from '../../sdk/index.js';
import type { CliContext } from '../context.js';
import { parseJsonInput } from '../input.js';
import { CliError, EXIT, out, printJson, withHint } from '../output.js';
import { previewTable, warningLines } from '../results.js';
import { showTask, type WaitFlags, withWaitFlags } from './tasks.js';

/** Prints a skill-call answer for a person. */
export function printCallSummary(res: SkillCallResponse): void {
  if (isCompleted(res)) {
    for (const line of [...previewTable(res.previews), ...warningLines(res)]) out(line);
    out(`call ${res.call_id} (full output: --json)`);
  } else if ('embed_id' in res) {
    out(
      `started ${res.task_id} (embed ${res.embed_id}); follow it with: skillflow tasks get ${res.task_id} --wait`,
    );
  } else {
    out(`queued ${res.task_id}; follow it with: skillflow tasks get ${res.task_id} --wait`);
  }
}

/** The catalogue's skills closest to `<app> <skill>`, as the command to type. */
async function skillGuesses(ctx: CliContext, app: string, skill: string): Promise<string[]> {
  const known = (await ctx.client.skills.list()).map((s) => `${s.app_id}.${s.skill_id}`);
  return suggestNames(`${app}.${skill}`, known).map((name) => `skillflow apps ${name.replace('.', ' ')}`);
}

/** Registers `apps <app> <skill>`. */
export function registerApps(
  program: Command,
  context: () => CliContext,
  run: (fn: () => Promise<number>) => Promise<void>,
): void {
  withWaitFlags(
    program
      .command('apps <app> <skill>')
      .description(
        'Call an app skill: apps hosting search_domains --input \'{"requests":[{"query":"cedar"}]}\'',
      )
      .requiredOption(
        '--input <json>',
        'the request envelope { "requests": [...] } as JSON, @file.json, or @- for stdin',
      )
      .option('--json', 'print exactly the REST response body')
      .option('--team <team_id>', 'run as a team (first-party team execution)')
      .option(
        '--idempotency-key <key>',
        'send Idempotency-Key: repeating the call with the same key and input within 24 h prints the first answer and calls nothing',
      )
      .option('--wait', 'when the call is queued or long-running, follow its task to the end'),
  ).action(
    (
      app: string,
      skill: string,
      flags: WaitFlags & { input: string; team?: string; idempotencyKey?: string },
    ) =>
      run(async () => {
        const input = parseJsonInput(flags.input);
        if (!Array.isArray(input.requests)) {
          throw new CliError(
            '--input must be the request envelope: { "requests": [ ... ] }.',
            EXIT.USAGE,
            'INVALID_INPUT',
          );
        }
        const ctx = context();
        const res = await ctx.client.skills
          .call(app, skill, input as { requests: Record<string, unknown>[] }, {
            ...(flags.team ? { teamId: flags.team } : {}),
            ...(flags.idempotencyKey !== undefined ? { idempotencyKey: flags.idempotencyKey } : {}),
          })
          .catch(async (e: unknown) => {
            if (e instanceof SkillflowApiError && e.code === 'SKILL_NOT_FOUND') {
              const guesses = await skillGuesses(ctx, app, skill).catch(() => []);
              if (guesses.length > 0) throw withHint(e, `did you mean ${guesses.join(' or ')}?`);
            }
            throw e;
          });
        if (flags.wait && !isCompleted(res)) return showTask(ctx, res.task_id, flags);
        if (flags.json) printJson(res);
        else printCallSummary(res);
        return EXIT.OK;
      }),
  );
}

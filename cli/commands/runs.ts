/**
 * `skillflow runs approve|reject <run_id> <step_id> [--payload <json>]` decides an approval a run
 * waits for; `skillflow runs approvals` lists the pending ones; `skillflow runs link <link>` shows
 * what an approval link asks and, with `--approve` or `--reject`, decides through it (no key).
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { parseJsonInput } from '../input.js';
import { CliError, EXIT, out, printJson } from '../output.js';

/** Registers `runs`. */
export function registerRuns(
  program: Command,
  context: () => CliContext,
  run: (fn: () => Promise<number>) => Promise<void>,
): void {
  const runs = program.command('runs').description('Decide the approvals your workflow runs wait for');
  runs
    .command('approvals')
    .description('List the approvals your runs wait for, soonest expiry first')
    .option('--json', 'print the JSON list')
    .action((flags: { json?: boolean }) =>
      run(async () => {
        const approvals = await context().client.approvals.list();
        if (flags.json) printJson(approvals);
        else if (approvals.length === 0) out('No approvals are waiting.');
        else
          for (const a of approvals) {
            const fields = Object.entries(a.payload)
              .map(([name, spec]) => `${name}${spec.required ? '*' : ''}: ${spec.type}`)
              .join(', ');
            out(`${a.run_id} ${a.step_id}  ${a.title}`);
            out(`  expires ${a.expires_at}${fields ? `; payload { ${fields} }` : ''}`);
          }
        return EXIT.OK;
      }),
    );
  for (const decision of ['approve', 'reject'] as const) {
    runs
      .command(`${decision} <run_id> <step_id>`)
      .description(
        decision === 'approve'
          ? 'Approve a waiting approval (the run goes on at once)'
          : 'Reject a waiting approval (the step completes with decision rejected)',
      )
      .option('--payload <json>', 'the payload as a JSON object, or @file.json')
      .option('--json', 'print the JSON answer')
      .action((runId: string, stepId: string, flags: { payload?: string; json?: boolean }) =>
        run(async () => {
          const payload = flags.payload ? parseJsonInput(flags.payload, '--payload') : undefined;
          const client = context().client.approvals;
          const res =
            decision === 'approve'
              ? await client.approve(runId, stepId, payload)
              : await client.reject(runId, stepId, payload);
          if (flags.json) printJson(res);
          else out(`${res.decision}: ${res.run_id} ${res.step_id} at ${res.decided_at}`);
          return EXIT.OK;
        }),
      );
  }
  runs
    .command('link <link>')
    .description(
      'Show what an approval link asks; with --approve or --reject, decide through it (once, no key needed)',
    )
    .option('--approve', 'approve through the link')
    .option('--reject', 'reject through the link')
    .option('--payload <json>', 'the payload as a JSON object, or @file.json')
    .option('--json', 'print the JSON answer')
    .action(
      (link: string, flags: { approve?: boolean; reject?: boolean; payload?: string; json?: boolean }) =>
        run(async () => {
          if (flags.approve && flags.reject)
            throw new CliError('Give --approve or --reject, not both.', EXIT.USAGE, 'INVALID_INPUT');
          const payload = flags.payload ? parseJsonInput(flags.payload, '--payload') : undefined;
          const client = context().client.approvals;
          if (!flags.approve && !flags.reject) {
            if (payload)
              throw new CliError('--payload goes with --approve or --reject.', EXIT.USAGE, 'INVALID_INPUT');
            const view = await client.viewLink(link);
            if (flags.json) printJson(view);
            else {
              out(view.title);
              out(`  expires ${view.expires_at}`);
              for (const [name, spec] of Object.entries(view.payload))
                out(
                  `  ${name}${spec.required ? '*' : ''}: ${spec.type}${spec.description ? `  ${spec.description}` : ''}`,
                );
            }
            return EXIT.OK;
          }
          const res = flags.approve
            ? await client.approveLink(link, payload)
            : await client.rejectLink(link, payload);
          if (flags.json) printJson(res);
          else out(`${res.decision}: ${res.run_id} ${res.step_id} at ${res.decided_at}`);
          return EXIT.OK;
        }),
    );
}

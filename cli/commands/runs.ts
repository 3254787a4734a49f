/**
 * `skillflow runs rerun <run_id> [--from STEP] [--input k=v]... [--step-input STEP=<json>]...`
 * re-runs a closed run from a step (the steps before it keep their outputs and make no call).
 * `skillflow runs list [filters]` lists your runs across definitions, one page at a time;
 * `skillflow runs approve|reject <run_id> <step_id> [--payload <json>]` decides an approval a run
 * waits for; `skillflow runs approvals` lists the pending ones; `skillflow runs link <link>` shows
 * what an approval link asks and, with `--approve` or `--reject`, decides through it (no key).
 */
import type { Command } from 'commander';
import type { RunFilters } from '../../sdk/index.js';
import type { CliContext } from '../context.js';
import { parseJsonInput } from '../input.js';
import { CliError, EXIT, out, printJson } from '../output.js';
import { showTask, withWaitFlags, type WaitFlags } from './tasks.js';

/** Collects a repeatable option's values. */
const collect = (value: string, earlier: string[] = []) => [...earlier, value];

/** `name=value` pairs: a value that is JSON (`true`, `3`, `"x"`, `[...]`) is that value, else the text. */
function namedValues(pairs: readonly string[], flag: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at);
    if (at < 1 || !/^[a-z][a-z0-9_]{0,63}$/.test(name))
      throw new CliError(`${flag} takes name=value, the name in lower case.`, EXIT.USAGE, 'INVALID_INPUT');
    const text = pair.slice(at + 1);
    try {
      values[name] = JSON.parse(text);
    } catch {
      values[name] = text;
    }
  }
  return values;
}

/** `step=<json object>` or `step=@file.json` pairs: skill steps' new inputs. */
function stepInputs(pairs: readonly string[]): Record<string, Record<string, unknown>> {
  const inputs: Record<string, Record<string, unknown>> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const step = pair.slice(0, at);
    if (at < 1 || !/^[a-z][a-z0-9_]{0,63}$/.test(step))
      throw new CliError(
        '--step-input takes step=<json object> or step=@file.json.',
        EXIT.USAGE,
        'INVALID_INPUT',
      );
    inputs[step] = parseJsonInput(pair.slice(at + 1), '--step-input');
  }
  return inputs;
}

interface ListFlags {
  workflow?: string;
  status?: string;
  failedStep?: string;
  since?: string;
  until?: string;
  limit?: string;
  pageToken?: string;
  json?: boolean;
}

/** Registers `runs`. */
export function registerRuns(
  program: Command,
  context: () => CliContext,
  run: (fn: () => Promise<number>) => Promise<void>,
): void {
  const runs = program
    .command('runs')
    .description(
      'Search your workflow runs, re-run them from a step, and decide the approvals they wait for',
    );
  withWaitFlags(
    runs
      .command('rerun <run_id>')
      .description(
        'Re-run a closed run from a step: earlier steps keep their outputs (no calls, no credits); prints the new task_id',
      )
      .option('--from <step>', 'the top-level step to run again from (default: the first that failed)')
      .option(
        '--input <name=value>',
        'change a run input (repeatable; JSON values such as true or 3 are typed)',
        collect,
      )
      .option(
        '--step-input <step=json>',
        "replace a skill step's whole input: step={...} or step=@file.json (repeatable)",
        collect,
      )
      .option('--wait', 'follow the re-run to the end (exit 3 failed, 4 cancelled)')
      .option('--json', 'print JSON only: the started re-run, or with --wait the final task'),
  ).action((runId: string, flags: WaitFlags & { from?: string; input?: string[]; stepInput?: string[] }) =>
    run(async () => {
      const ctx = context();
      const started = await ctx.client.runs.rerun(runId, {
        ...(flags.from !== undefined && { fromStep: flags.from }),
        ...(flags.input && { inputs: namedValues(flags.input, '--input') }),
        ...(flags.stepInput && { stepInputs: stepInputs(flags.stepInput) }),
      });
      if (flags.wait) return showTask(ctx, started.task_id, flags);
      if (flags.json) printJson(started);
      else {
        out(started.task_id);
        const reused = started.reused_steps.length ? started.reused_steps.join(', ') : 'none';
        const elements = started.reused_elements ? ` and ${started.reused_elements} loop elements` : '';
        out(`  re-runs ${runId} from ${started.from_step}; reuses ${reused}${elements}`);
      }
      return EXIT.OK;
    }),
  );
  runs
    .command('list')
    .description('List your runs across definitions, newest first (open runs first), one page at a time')
    .option('--workflow <id>', 'only runs of this definition (wf_...)')
    .option('--status <status>', 'running, completed, failed, cancelled or timed_out')
    .option('--failed-step <id>', 'only failed runs whose top-level step of this id failed')
    .option('--since <time>', 'only runs started after this RFC 3339 instant')
    .option('--until <time>', 'only runs started before this RFC 3339 instant')
    .option('--limit <n>', 'runs per page, 1-100 (default 20)')
    .option(
      '--page-token <token>',
      'the next page: the token the previous page printed, with the same filters',
    )
    .option('--json', 'print the REST body { runs, next_page_token }')
    .action((flags: ListFlags) =>
      run(async () => {
        const page = await context().client.runs.list({
          ...(flags.workflow && { workflowId: flags.workflow }),
          ...(flags.status && { status: flags.status as RunFilters['status'] }),
          ...(flags.failedStep && { failedStep: flags.failedStep }),
          ...(flags.since && { startedAfter: flags.since }),
          ...(flags.until && { startedBefore: flags.until }),
          ...(flags.limit !== undefined && { limit: Number(flags.limit) }),
          ...(flags.pageToken && { pageToken: flags.pageToken }),
        });
        if (flags.json) printJson(page);
        else {
          if (page.runs.length === 0) out('No runs match.');
          for (const r of page.runs)
            out(
              `${r.task_id}  ${r.status.padEnd(9)}  ${r.workflow_id ?? '-'}  ${r.started_at}${r.failed_step ? `  failed at ${r.failed_step}` : ''}`,
            );
          if (page.next_page_token) out(`more: --page-token ${page.next_page_token}`);
        }
        return EXIT.OK;
      }),
    );
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

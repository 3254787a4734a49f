/**
 * `skillflow workflows validate|apply|run|list|runs|delete|hook|schedule` (schedule: pause, resume,
 * trigger, backfill). `apply` creates a definition, or
 * saves a new version of the existing one: the one named by `--id`, else the single existing
 * definition with the same `title` (titles are the stable key, as names are for
 * `kubectl apply`); several with that title is an error asking for `--id`.
 */
import type { Command } from 'commander';
import { formatDiagnostics } from '../../definitions/diagnostic-text.js';
import type { Diagnostic } from '../../definitions/diagnostics.js';
import { SCHEDULE_OVERLAPS, type ScheduleOverlap } from '../../definitions/runtime/plan.js';
import { SkillflowApiError, type ScheduleState, type WorkflowDefinition } from '../../sdk/index.js';
import type { CliContext } from '../context.js';
import { definitionFormat, parseJsonInput, readDefinitionFile } from '../input.js';
import { CliError, EXIT, out, printJson } from '../output.js';
import type { ValidateOptions } from '../validate.js';
import { showTask, withWaitFlags, type WaitFlags } from './tasks.js';

const isOverlap = (value: string): value is ScheduleOverlap =>
  (SCHEDULE_OVERLAPS as readonly string[]).includes(value);

type Run = (fn: () => Promise<number>) => Promise<void>;

/** The `title` of a definition text, when it parses far enough to have one. */
export async function titleOf(text: string, format: 'yaml' | 'json'): Promise<string | undefined> {
  // Loaded when a command needs it: `--help` and the other commands start without it.
  const { parse: parseYaml } = await import('yaml');
  try {
    const value: unknown = format === 'json' ? JSON.parse(text) : parseYaml(text);
    const title = (value as { title?: unknown } | null)?.title;
    return typeof title === 'string' ? title : undefined;
  } catch {
    return undefined;
  }
}

/** What `apply` did. */
export interface ApplyOutcome {
  action: 'created' | 'updated' | 'unchanged';
  definition: WorkflowDefinition;
}

/** Creates or updates the definition in `file`; see the module comment for the mapping. */
export async function applyFile(
  ctx: CliContext,
  file: string,
  opts: { id?: string; create?: boolean },
): Promise<ApplyOutcome> {
  const text = readDefinitionFile(file);
  const format = definitionFormat(file, text);
  let existing: { id: string; version: number } | undefined = opts.id
    ? await ctx.client.workflows.get(opts.id)
    : undefined;
  if (!existing && !opts.create) {
    const title = await titleOf(text, format);
    const same =
      title === undefined ? [] : (await ctx.client.workflows.list()).filter((w) => w.title === title);
    if (same.length > 1) {
      throw new CliError(
        `${same.length} definitions are titled ${JSON.stringify(title)} (${same.map((w) => w.id).join(', ')}); pass --id <id> to pick one, or --create.`,
        EXIT.FAILURE,
        'AMBIGUOUS_TITLE',
      );
    }
    existing = same[0];
  }
  try {
    if (!existing)
      return { action: 'created', definition: await ctx.client.workflows.create(text, { format }) };
    const definition = await ctx.client.workflows.update(existing.id, text, { format });
    return { action: definition.version === existing.version ? 'unchanged' : 'updated', definition };
  } catch (e) {
    const diagnostics =
      e instanceof SkillflowApiError ? (e.details.diagnostics as Diagnostic[] | undefined) : undefined;
    if (!Array.isArray(diagnostics)) throw e;
    for (const line of formatDiagnostics(file, diagnostics)) out(line);
    throw new CliError(
      `${file} was not saved: ${diagnostics.length} problem(s).`,
      EXIT.FAILURE,
      (e as SkillflowApiError).code,
    );
  }
}

/** Registers `workflows`. */
export function registerWorkflows(program: Command, context: () => CliContext, run: Run): void {
  const wf = program.command('workflows').description('Workflow definitions and runs');

  wf.command('validate <file>')
    .description(
      'Compile a definition locally against the live skill catalog; prints file:line:col: CODE message',
    )
    .option('--offline', "use this checkout's skill catalog, not the API's")
    .option('--server', 'let the API compile it (POST /v1/workflows/validate)')
    .option('--json', 'print { file, valid, catalog, diagnostics } as JSON')
    .action((file: string, flags: ValidateOptions) =>
      // The compiler loads only for this command.
      run(async () => (await import('../validate.js')).runValidate(context(), file, flags)),
    );

  wf.command('apply <file>')
    .description('Create the definition, or save a new version of the one with --id or the same title')
    .option('--id <id>', 'update this definition (wf_...)')
    .option('--create', 'always create a new definition')
    .option('--json', 'print the saved definition as JSON')
    .option(
      '-q, --quiet',
      "print only the definition's id (for scripts: WF=$(skillflow workflows apply f.yaml -q))",
    )
    .action((file: string, flags: { id?: string; create?: boolean; json?: boolean; quiet?: boolean }) =>
      run(async () => {
        if (flags.id && flags.create)
          throw new CliError('--id and --create exclude each other.', EXIT.USAGE, 'USAGE');
        if (flags.json && flags.quiet)
          throw new CliError('--json and --quiet exclude each other.', EXIT.USAGE, 'USAGE');
        const res = await applyFile(context(), file, flags);
        if (flags.json) printJson(res.definition);
        else if (flags.quiet) out(res.definition.id);
        else {
          out(
            `${res.action} ${res.definition.id} (version ${res.definition.version}, ${res.definition.trigger_type})`,
          );
          if (res.definition.hook) printHook(res.definition.hook);
        }
        return EXIT.OK;
      }),
    );

  withWaitFlags(
    wf
      .command('run <id>')
      .description('Start a run; prints its task_id, or follows it with --wait')
      .option('--input <json>', 'run inputs as a JSON object, or @file.json')
      .option(
        '--idempotency-key <key>',
        'send Idempotency-Key: repeating the start with the same key and inputs within 24 h prints the first run and starts nothing',
      )
      .option('--wait', 'follow the run to the end (exit 3 failed, 4 cancelled)')
      .option('--json', 'print JSON only: the started run, or with --wait the final task'),
  ).action((id: string, flags: WaitFlags & { input?: string; idempotencyKey?: string }) =>
    run(async () => {
      const ctx = context();
      const inputs = flags.input ? parseJsonInput(flags.input) : {};
      const started = await ctx.client.workflows.run(id, inputs, {
        ...(flags.idempotencyKey !== undefined ? { idempotencyKey: flags.idempotencyKey } : {}),
      });
      if (flags.wait) return showTask(ctx, started.task_id, flags);
      if (flags.json) printJson(started);
      else out(started.task_id);
      return EXIT.OK;
    }),
  );

  wf.command('list')
    .description('List workflow definitions')
    .option('--json', 'print the REST body { workflows: [...] }')
    .action((flags: { json?: boolean }) =>
      run(async () => {
        const workflows = await context().client.workflows.list();
        if (flags.json) printJson({ workflows });
        else if (workflows.length === 0) out('no workflow definitions');
        else
          for (const w of workflows) out(`${w.id}  v${w.version}  ${w.trigger_type.padEnd(8)}  ${w.title}`);
        return EXIT.OK;
      }),
    );

  wf.command('runs <id>')
    .description('Run history of a definition')
    .option('--json', 'print the REST body { runs: [...] }')
    .action((id: string, flags: { json?: boolean }) =>
      run(async () => {
        const runs = await context().client.workflows.runs(id);
        if (flags.json) printJson({ runs });
        else for (const r of runs) out(`${r.task_id}  ${r.status.padEnd(10)}  ${r.started_at}`);
        return EXIT.OK;
      }),
    );

  const hook = wf.command('hook').description("A webhook trigger's URL and signing secret");
  hook
    .command('show <id>')
    .description("Print the definition's hook URL (never its secret)")
    .option('--json', 'print the hook as JSON')
    .action((id: string, flags: { json?: boolean }) =>
      run(async () => {
        const def = await context().client.workflows.get(id);
        if (!def.hook)
          throw new CliError(`${id} has no webhook trigger.`, EXIT.FAILURE, 'NO_WEBHOOK_TRIGGER');
        if (flags.json) printJson(def.hook);
        else printHook(def.hook);
        return EXIT.OK;
      }),
    );
  hook
    .command('rotate <id>')
    .description('Make a new signing secret and print it (shown this once)')
    .option(
      '--keep-previous <seconds>',
      'keep accepting the old secret this long (0-86400, default 0: stop at once)',
    )
    .option('--json', 'print the REST body (with signing_secret)')
    .action((id: string, flags: { keepPrevious?: string; json?: boolean }) =>
      run(async () => {
        const keep = flags.keepPrevious === undefined ? 0 : Number(flags.keepPrevious);
        if (!Number.isInteger(keep) || keep < 0 || keep > 86_400)
          throw new CliError('--keep-previous takes whole seconds from 0 to 86400.', EXIT.USAGE, 'USAGE');
        const rotated = await context().client.workflows.hook.rotate(id, { keepPreviousSeconds: keep });
        if (flags.json) printJson(rotated);
        else printHook(rotated);
        return EXIT.OK;
      }),
    );

  const schedule = wf.command('schedule').description("A scheduled definition's Temporal Schedule");
  const scheduleOps = {
    pause: ['Pause the schedule: no tick starts a run until it is resumed', 'paused'],
    resume: ['Resume a paused schedule', 'resumed'],
    trigger: ['Start one run now, outside the schedule (also while paused)', 'triggered one run of'],
  } as const;
  for (const [op, [description, done]] of Object.entries(scheduleOps)) {
    schedule
      .command(`${op} <id>`)
      .description(description)
      .option('--json', "print the REST body (the schedule's state)")
      .action((id: string, flags: { json?: boolean }) =>
        run(async () => {
          const state = await context().client.workflows.schedule[op as keyof typeof scheduleOps](id);
          if (flags.json) printJson(state);
          else printScheduleState(`${done} ${id}`, state);
          return EXIT.OK;
        }),
      );
  }
  schedule
    .command('backfill <id>')
    .description("Run the schedule's ticks of a past window now (at most 1,000 ticks)")
    .requiredOption('--start <instant>', 'first instant of the window (RFC 3339, e.g. 2026-11-01T00:00:00Z)')
    .requiredOption('--end <instant>', 'last instant of the window (RFC 3339, not in the future)')
    .option('--overlap <policy>', `${SCHEDULE_OVERLAPS.join(', ')} (default: the schedule's own)`)
    .option('--json', 'print the REST body')
    .action((id: string, flags: { start: string; end: string; overlap?: string; json?: boolean }) =>
      run(async () => {
        const overlap = flags.overlap;
        if (overlap !== undefined && !isOverlap(overlap))
          throw new CliError(`--overlap takes one of ${SCHEDULE_OVERLAPS.join(', ')}.`, EXIT.USAGE, 'USAGE');
        const done = await context().client.workflows.schedule.backfill(id, {
          start: flags.start,
          end: flags.end,
          ...(overlap ? { overlap } : {}),
        });
        if (flags.json) printJson(done);
        else
          out(`backfill of ${done.ticks} ticks from ${done.start} to ${done.end} (overlap ${done.overlap})`);
        return EXIT.OK;
      }),
    );

  wf.command('delete <id>')
    .description('Delete a definition and its schedule')
    .action((id: string) =>
      run(async () => {
        await context().client.workflows.delete(id);
        out(`deleted ${id}`);
        return EXIT.OK;
      }),
    );
}

/** What a schedule command did, then the schedule's state. */
function printScheduleState(done: string, state: ScheduleState): void {
  out(done);
  out(
    `schedule ${state.schedule_id}: ${state.paused ? 'paused' : 'active'}${state.timezone ? ` (${state.timezone})` : ''}`,
  );
  out(`next runs: ${state.next_runs.length > 0 ? state.next_runs.join(', ') : 'none'}`);
  if (state.recent_task_ids.length > 0) out(`recent runs: ${state.recent_task_ids.join(', ')}`);
}

/** A hook's URL, and its secret when the answer holds it (only once). */
function printHook(hook: NonNullable<WorkflowDefinition['hook']>): void {
  out(`hook URL: ${hook.url}`);
  if (hook.signing_secret) out(`signing secret (shown this once, keep it safe): ${hook.signing_secret}`);
  if (hook.previous_secret_expires_at)
    out(`the previous secret is accepted until ${hook.previous_secret_expires_at}`);
}

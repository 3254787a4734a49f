/**
 * The one way to run a skill: the Temporal activity (skill-activity.ts), the API's in-process
 * quick calls (api/services/skill-calls.ts, api/services/anonymous-calls.ts), tests and benches
 * all call {@link runSkill}. What differs between them is the {@link RunContext}: where
 * cancellation comes from, whether the policy deadline is enforced here, where heartbeats go,
 * whether the caller is anonymous, the upstream meter, and the output view.
 *
 * The runner validates the input with the skill's schema (unless the caller already did),
 * heartbeats on the interval of the skill's policy while the skill runs (repeating the skill's
 * last details, its stage), turns a run the deadline cut into DEADLINE_EXCEEDED, and answers
 * the view asked for. Every other failure is rethrown as the skill raised it: the activity
 * converts it once at the Temporal boundary, the API error handler maps it on the HTTP path.
 */
import { parseOrThrow, SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { ResolvedPolicy } from '../policy.js';
import type { LoadedSkill, SkillImplementation, UpstreamMeter } from '../registry/types.js';

/** A loaded skill whose implementation is available. */
export type RunnableSkill = LoadedSkill & { impl: SkillImplementation };

/** What the runner needs of a skill: its implementation and its resolved policy. */
export interface SkillToRun<I = unknown, O = unknown, W = unknown> {
  policy: ResolvedPolicy;
  impl: SkillImplementation<I, O, W>;
}

/** The REST body parts of a run: the full output and its previews. */
export interface FullSkillResult<O = unknown> {
  output: O;
  previews: unknown[];
}

/** `workflow`: the workflow-visible output; `full`: the REST body (output plus previews). */
export type OutputView = 'workflow' | 'full';

/** What differs between the callers of {@link runSkill}. */
export interface RunContext {
  view: OutputView;
  /** Every upstream request is charged here right before it is sent (upstream-meter.ts). */
  meter: UpstreamMeter;
  /** The anonymous route: the skill never waits for an upstream's Retry-After. */
  anonymous: boolean;
  /**
   * Cancellation from the caller (Temporal's cancellation signal). A run it aborted rethrows
   * the skill's own error, so a cancellation stays a cancellation.
   */
  signal?: AbortSignal | undefined;
  /**
   * In-process runs enforce their deadline here ({@link policyDeadlineMs}): it reaches the
   * skill as an `AbortSignal`, and a run it cut is DEADLINE_EXCEEDED. Temporal enforces the
   * same limit on an activity, which passes none.
   */
  deadlineMs?: number | undefined;
  /** Liveness sink (Temporal's heartbeat); without one the skill's heartbeats go nowhere. */
  heartbeat?: ((details: unknown) => void) | undefined;
  /**
   * The input was already parsed with the skill's schema (at the HTTP edge, or by the activity
   * for its provider-limit check): it is not parsed again.
   */
  validated?: boolean | undefined;
}

/** The deadline of one in-process run: the one-attempt limit of the skill's policy profile. */
export function policyDeadlineMs(skill: Pick<SkillToRun, 'policy'>): number {
  return skill.policy.activity.startToCloseTimeout;
}

const noHeartbeat = (): void => undefined;

/** Runs `skill` once and answers the view `ctx.view` asks for (see the module comment). */
export function runSkill<I, O, W>(
  skill: SkillToRun<I, O, W>,
  input: unknown,
  ctx: RunContext & { view: 'full' },
): Promise<FullSkillResult<O>>;
export function runSkill<I, O, W>(
  skill: SkillToRun<I, O, W>,
  input: unknown,
  ctx: RunContext & { view: 'workflow' },
): Promise<W>;
export function runSkill<I, O, W>(
  skill: SkillToRun<I, O, W>,
  input: unknown,
  ctx: RunContext,
): Promise<W | FullSkillResult<O>>;
export async function runSkill<I, O, W>(
  skill: SkillToRun<I, O, W>,
  input: unknown,
  ctx: RunContext,
): Promise<W | FullSkillResult<O>> {
  const { impl } = skill;
  const parsed = ctx.validated ? (input as I) : parseOrThrow(impl.input, input);
  const deadline = ctx.deadlineMs === undefined ? undefined : AbortSignal.timeout(ctx.deadlineMs);
  const signal =
    ctx.signal && deadline
      ? AbortSignal.any([ctx.signal, deadline])
      : (ctx.signal ?? deadline ?? new AbortController().signal);
  const sink = ctx.heartbeat;
  const every = skill.policy.deadlines.heartbeatIntervalMs;
  let details: unknown;
  const beat = sink && every !== undefined ? setInterval(() => sink(details), every) : undefined;
  beat?.unref();
  let output: O;
  try {
    output = await impl.run(parsed, {
      signal,
      heartbeat: sink
        ? (d) => {
            details = d;
            sink(d);
          }
        : noHeartbeat,
      anonymous: ctx.anonymous,
      meter: ctx.meter,
    });
  } catch (err) {
    if (deadline?.aborted && !ctx.signal?.aborted) throw new SkillflowError('DEADLINE_EXCEEDED');
    throw err;
  } finally {
    clearInterval(beat);
  }
  if (ctx.view === 'workflow') return impl.toWorkflowOutput(output);
  return { output, previews: impl.previews(output) };
}

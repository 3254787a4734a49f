/**
 * The in-process runner of quick skills, shared by the anonymous route and the authenticated
 * fast path (a quick skill answers inline). The skill runs in the API process under
 * its policy profile: the profile's one-attempt limit (`startToCloseMs`) is the deadline, given
 * to the skill as an `AbortSignal`; a run the deadline cut is DEADLINE_EXCEEDED. Every other
 * failure keeps its catalogue code (the API error handler maps anything else to INTERNAL, as
 * the activity boundary does on the Temporal path). The input must already be validated at the
 * HTTP edge: it is not parsed again here.
 */
import type { LoadedSkill, SkillImplementation, UpstreamMeter } from '../../activities/registry/types.js';
import type { FullSkillResult } from '../../activities/skill-activity.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';

/** A loaded skill whose implementation is available. */
export type RunnableSkill = LoadedSkill & { impl: SkillImplementation };

/** The deadline of one in-process run: the one-attempt limit of the skill's policy profile. */
export function inlineDeadlineMs(skill: RunnableSkill): number {
  return skill.policy.activity.startToCloseTimeout;
}

export interface InlineRunOptions {
  /** Anonymous calls get no user, chat, embed or upload context. */
  anonymous: boolean;
  /** Charges each upstream request to the provider limits (and the caller's share). */
  meter: UpstreamMeter;
}

/**
 * Runs `skill` on already-validated `input` in this process and returns the REST body parts
 * (output and previews). Throws DEADLINE_EXCEEDED when the policy deadline aborted the run.
 */
export async function runInline(
  skill: RunnableSkill,
  input: unknown,
  opts: InlineRunOptions,
): Promise<FullSkillResult> {
  const signal = AbortSignal.timeout(inlineDeadlineMs(skill));
  let output: unknown;
  try {
    output = await skill.impl.run(input, {
      signal,
      heartbeat: () => undefined,
      anonymous: opts.anonymous,
      meter: opts.meter,
    });
  } catch (err) {
    if (signal.aborted) throw new SkillflowError('DEADLINE_EXCEEDED');
    throw err;
  }
  return { output, previews: skill.impl.previews(output) };
}

import { SkillflowError, toEnvelope } from '../../lib/errors/skillflow-error.js';

/** The error envelope a rejected promise's SkillflowError becomes (anything else as it is). */
export async function envelope(p: Promise<unknown>): Promise<unknown> {
  const err = await p.then(
    () => 'not refused',
    (e: unknown) => e,
  );
  return err instanceof SkillflowError ? toEnvelope(err) : err;
}

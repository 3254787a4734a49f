/** `#apps/<app>/<skill>`: the form generated from the skill's request schema, and its results. */
import { Pending } from './Pending.js';

export function SkillPage(props: { apiKey: string | null; app: string; skill: string }) {
  return <Pending title={`${props.app} / ${props.skill}`} />;
}

/**
 * The catalogue's skills as the YAML editor knows them: `app.skill` names with title and
 * description from the public app list, and a skill's request fields from its details, each
 * fetched once per page load.
 */
import type { SkillDetails } from '../../../sdk/generated.js';
import { listApps, skillDetails } from '../api.js';

export interface SkillSummary {
  /** `app.skill`, as `use_app_skill` names it. */
  name: string;
  title: string;
  description: string;
}

/** One request field of a skill: name, kind and whether it must be given. */
export interface RequestField {
  name: string;
  type: string;
  required: boolean;
}

let skills: Promise<SkillSummary[]> | undefined;
const details = new Map<string, Promise<SkillDetails>>();

/** Every skill of the catalogue (a failed load is tried again on the next call). */
export function catalogueSkills(): Promise<SkillSummary[]> {
  skills ??= listApps().then(
    (apps) =>
      apps.flatMap((app) =>
        app.skills.map((s) => ({ name: `${app.id}.${s.id}`, title: s.title, description: s.description })),
      ),
    (e: unknown) => {
      skills = undefined;
      throw e;
    },
  );
  return skills;
}

/** A skill's details (the public route: what a skill takes does not depend on who asks). */
export function catalogueDetails(name: string): Promise<SkillDetails> {
  const [app, skill] = name.split('.') as [string, string];
  let found = details.get(name);
  if (!found) {
    found = skillDetails(null, app, skill);
    found.catch(() => details.delete(name));
    details.set(name, found);
  }
  return found;
}

/** The fields of one request of a skill, from its JSON Schema (`request_item_schema`). */
export function requestFields(schema: Record<string, unknown>): RequestField[] {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown }>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, p]) => ({
    name,
    type: Array.isArray(p.type)
      ? p.type.join(' or ')
      : typeof p.type === 'string'
        ? p.type
        : Array.isArray(p.enum)
          ? 'one of a list'
          : 'any',
    required: required.has(name),
  }));
}

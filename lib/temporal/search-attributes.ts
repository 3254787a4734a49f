/**
 * Custom search attributes. They are never encrypted, so they carry ids only, never user text.
 * Registered on the dev server at start (and listed in docker-compose for a real cluster).
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const DefinitionId = defineSearchAttributeKey('DefinitionId', SearchAttributeType.KEYWORD);
export const DefinitionVersion = defineSearchAttributeKey('DefinitionVersion', SearchAttributeType.INT);
export const TriggerType = defineSearchAttributeKey('TriggerType', SearchAttributeType.KEYWORD);
/** `workflow_run` or `skill_call`. */
export const TaskKind = defineSearchAttributeKey('TaskKind', SearchAttributeType.KEYWORD);
/** `<app>.<skill>` for skill calls. */
export const SkillRef = defineSearchAttributeKey('SkillRef', SearchAttributeType.KEYWORD);
/** The owning API key's owner id (an opaque id). */
export const OwnerId = defineSearchAttributeKey('OwnerId', SearchAttributeType.KEYWORD);

/** What an open run waits for (`approval` while a wait_for_approval step waits); empty otherwise. */
export const Waiting = defineSearchAttributeKey('Waiting', SearchAttributeType.KEYWORD_LIST);

/** A re-run: the task id of the run it re-ran (its own runs are found by it). */
export const RerunOf = defineSearchAttributeKey('RerunOf', SearchAttributeType.KEYWORD);
/**
 * A failed run's top-level step that failed (a step id: `lower_snake`, never content); unset for
 * every other run. Set by `runDefinition` as it fails (workflows/failed-step.ts).
 */
export const FailedStep = defineSearchAttributeKey('FailedStep', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [
  DefinitionId,
  DefinitionVersion,
  TriggerType,
  TaskKind,
  SkillRef,
  OwnerId,
  Waiting,
  RerunOf,
  FailedStep,
];

/** `--search-attribute Name=Type` flags for `temporal server start-dev`. */
export function searchAttributeFlags(): string[] {
  const cliType: Record<string, string> = { KEYWORD: 'Keyword', INT: 'Int', KEYWORD_LIST: 'KeywordList' };
  return SEARCH_ATTRIBUTES.flatMap((k) => ['--search-attribute', `${k.name}=${cliType[k.type] ?? k.type}`]);
}

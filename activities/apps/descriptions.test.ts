/**
 * App and skill titles and descriptions are what people read in the workspace and the catalogue:
 * plain words about what the skill does, never developer notes (doc paths, configuration
 * variables, status codes, wire field names, "upstream").
 */
import { describe, expect, it } from 'vitest';
import { APPS } from './index.js';

const JARGON = [
  /docs\//,
  /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/,
  /\b[1-5]\d\d\b/,
  /\btask_id\b/,
  /\bembed_id\b/,
  /upstream/i,
];

const texts = APPS.flatMap((app) => [
  { where: app.id, text: `${app.title} ${app.description}` },
  ...app.skills.map((s) => ({ where: `${app.id}.${s.id}`, text: `${s.title} ${s.description}` })),
]);

describe('app and skill descriptions', () => {
  it.each(texts)('$where reads as plain words', ({ text }) => {
    expect(JARGON.filter((j) => j.test(text))).toEqual([]);
  });
});

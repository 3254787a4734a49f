/** The workflow's FailedStep name and type are the API's (lib/temporal/search-attributes.ts). */
import { describe, expect, it } from 'vitest';
import { FailedStep, SEARCH_ATTRIBUTES } from '../lib/temporal/search-attributes.js';
import { FAILED_STEP_ATTRIBUTE } from './failed-step.js';

describe('FAILED_STEP_ATTRIBUTE', () => {
  it('names the registered keyword attribute', () => {
    expect([FAILED_STEP_ATTRIBUTE, FailedStep.type]).toEqual([FailedStep.name, 'KEYWORD']);
    expect(SEARCH_ATTRIBUTES).toContain(FailedStep);
  });
});

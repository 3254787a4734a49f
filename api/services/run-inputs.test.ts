import { describe, expect, it } from 'vitest';
import type { Plan } from '../../definitions/runtime/index.js';
import { SkillflowError, toEnvelope } from '../../lib/errors/skillflow-error.js';
import { checkedRunInputs } from './run-inputs.js';

const plan: Plan = {
  planVersion: 1,
  title: 'Inputs',
  trigger: { type: 'manual', inputs: { word: { type: 'string', required: true } } },
  steps: [],
};

/** The error body `checkedRunInputs` answers with for `provided`. */
function errorBody(provided: Record<string, unknown>) {
  try {
    checkedRunInputs(plan, provided);
  } catch (err) {
    if (err instanceof SkillflowError) return { status: err.status, body: toEnvelope(err) };
    throw err;
  }
  throw new Error('the inputs were accepted');
}

describe('checkedRunInputs', () => {
  it('answers the declared inputs', () => {
    expect(checkedRunInputs(plan, { word: 'cedar' })).toEqual({ word: 'cedar' });
  });

  it('names the location of an arbitrary undeclared key without quoting it', () => {
    expect(errorBody({ word: 'cedar', '°À?E': 1 })).toEqual({
      status: 400,
      body: {
        error: {
          code: 'INVALID_PARAMETER',
          message: 'Invalid value at inputs: holds an input the definition does not declare',
          details: {
            issues: [{ path: 'inputs', message: 'holds an input the definition does not declare' }],
          },
        },
      },
    });
  });

  it('puts an undeclared key of the input-name form in details only', () => {
    expect(errorBody({ word: 'cedar', colour: 'red' })).toEqual({
      status: 400,
      body: {
        error: {
          code: 'INVALID_PARAMETER',
          message: 'Invalid value at inputs: holds an input the definition does not declare',
          details: {
            issues: [
              { path: 'inputs', message: 'holds an input the definition does not declare', input: 'colour' },
            ],
          },
        },
      },
    });
  });

  it('names an oversized key only when it has the input-name form', () => {
    expect(errorBody({ word: 'cedar', 'Ä b': 'x'.repeat(70_000) })).toEqual({
      status: 413,
      body: {
        error: {
          code: 'RUN_INPUTS_TOO_LARGE',
          message: "The run's inputs are larger than the limit; see details.issues for the input.",
          details: {
            issues: [
              { path: 'inputs', message: 'takes the run inputs past 65536 characters of JSON in total' },
            ],
            max_chars: 65_536,
          },
        },
      },
    });
  });
});

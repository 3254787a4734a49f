import { describe, expect, it } from 'vitest';
import { decodePageToken, encodePageToken, runSearchQuery } from './run-search-query.js';

describe('runSearchQuery', () => {
  it("starts with the owner's workflow runs and quotes every value", () => {
    expect(runSearchQuery({ ownerId: 'owner_a' })).toBe('OwnerId = "owner_a" AND TaskKind = "workflow_run"');
    expect(
      runSearchQuery({
        ownerId: 'o"x\\',
        workflowId: 'wf_a',
        status: 'failed',
        failedStep: 'check',
        trigger: 'webhook',
        startedAfter: new Date('2026-01-01T00:00:00Z'),
        startedBefore: new Date('2026-02-01T00:00:00+01:00'),
      }),
    ).toBe(
      'OwnerId = "o\\"x\\\\" AND TaskKind = "workflow_run" AND DefinitionId = "wf_a" AND ' +
        'ExecutionStatus IN ("Failed", "Terminated", "TimedOut") AND FailedStep = "check" AND ' +
        'TriggerType = "webhook" AND ' +
        'StartTime > "2026-01-01T00:00:00.000Z" AND StartTime < "2026-01-31T23:00:00.000Z"',
    );
    expect(runSearchQuery({ ownerId: 'o', status: 'cancelled' })).toBe(
      'OwnerId = "o" AND TaskKind = "workflow_run" AND ExecutionStatus = "Canceled"',
    );
  });
});

describe('page tokens', () => {
  const query = runSearchQuery({ ownerId: 'owner_a' });
  const token = encodePageToken(query, new Uint8Array([1, 2, 250]));

  it('round-trips for the query that made it', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect([...decodePageToken(query, token)!]).toEqual([1, 2, 250]);
  });

  it('refuses another query, an altered token and junk', () => {
    expect(decodePageToken(runSearchQuery({ ownerId: 'owner_b' }), token)).toBeUndefined();
    expect(decodePageToken(query, `A${token}`)).toBeUndefined();
    expect(decodePageToken(query, `${token}.x`)).toBeUndefined();
    expect(decodePageToken(query, 'not-a-token')).toBeUndefined();
  });
});

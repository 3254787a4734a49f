/**
 * No user text in Temporal: a run that fails validation at run time on a distinctive query keeps
 * that query out of the server's raw history, failure messages and stack traces included, while
 * the API still reads the catalogue code through the codec.
 */
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { AesGcmPayloadCodec } from '../../lib/crypto/codec.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { TEST_KEYRING } from '../helpers/temporal.js';

const DEFINITION = `title: Failure probe
start_when:
  manual:
    inputs:
      word: { type: string, required: true }
steps:
  - id: search
    use_app_skill: hosting.search_domains
    input:
      requests:
        - query: "{{inputs.word}}"
`;

describe('failure texts on a real Temporal server', () => {
  let h: EngineHarness;

  beforeAll(async () => {
    // Validation fails before any upstream call; the shop URL is a closed loopback port.
    h = await startEngine({
      apps: APPS,
      config: { SHOP_URL: 'http://127.0.0.1:9' },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps a query that fails run-time validation out of the raw history', async () => {
    const distinctive = '-quokkaflamingo';
    const def = await h.request('POST', '/v1/workflows', DEFINITION, 'application/yaml');
    expect(def.status).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {
      inputs: { word: distinctive },
    });
    expect(run.status).toBe(202);
    const taskId = run.json.task_id as string;

    const task = await h.waitForTask(taskId, (t) => t.status === 'failed');
    expect(task.error).toEqual({
      code: 'INVALID_PARAMETER',
      message:
        'A step failed: Invalid value at requests[0].query: Not a valid keyword: a label starts or ends with a hyphen.',
      details: { step: 'search' },
    });
    expect(task.steps[0].error).toEqual({
      code: 'INVALID_PARAMETER',
      message:
        'Invalid value at requests[0].query: Not a valid keyword: a label starts or ends with a hyphen.',
    });

    const raw = await h.env.connection.workflowService.getWorkflowExecutionHistory({
      namespace: 'default',
      execution: { workflowId: taskId },
    });
    const bytes = Buffer.from(temporal.api.history.v1.History.encode(raw.history!).finish());
    for (const needle of [
      distinctive,
      'quokka',
      'flamingo',
      'QUOKKA',
      'Not a valid keyword',
      'requests[0]',
    ]) {
      expect(bytes.includes(Buffer.from(needle)), needle).toBe(false);
    }
    // Every failure in the history carries only the placeholder; its text is an encrypted payload.
    const failed = raw.history!.events!.find((e) => e.workflowExecutionFailedEventAttributes)!;
    const failure = failed.workflowExecutionFailedEventAttributes!.failure!;
    expect(failure.message).toBe('Encoded failure');
    expect(failure.stackTrace).toBe('');
    expect(failure.applicationFailureInfo?.type).toBe('INVALID_PARAMETER');
    const encoded = failure.encodedAttributes!;
    expect(Buffer.from(encoded.metadata!.encoding!).toString()).toBe('binary/encrypted');
    const [decoded] = await new AesGcmPayloadCodec(TEST_KEYRING).decode([encoded]);
    expect(JSON.parse(Buffer.from(decoded!.data!).toString())).toMatchObject({
      message:
        'A step failed: Invalid value at requests[0].query: Not a valid keyword: a label starts or ends with a hyphen.',
    });
    const activityFailed = raw.history!.events!.find((e) => e.activityTaskFailedEventAttributes)!;
    expect(activityFailed.activityTaskFailedEventAttributes!.failure!.message).toBe('Encoded failure');
  });
});

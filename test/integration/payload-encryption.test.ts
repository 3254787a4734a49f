import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityPolicy } from '../../activities/policy.js';
import { AesGcmPayloadCodec } from '../../lib/crypto/codec.js';
import { startWorker, type RunningWorker } from '../../worker/index.js';
import { createTestPlatform } from '../helpers/platform.js';
import { startTestTemporal, TEST_KEYRING } from '../helpers/temporal.js';
import type { Platform } from '../../platform/create-platform.js';

describe('payload encryption on a real Temporal server', () => {
  let env: TestWorkflowEnvironment;
  let worker: RunningWorker;
  let platform: Platform;
  const taskQueue = `enc-${randomUUID()}`;

  beforeAll(async () => {
    env = await startTestTemporal();
    platform = await createTestPlatform({ config: { TEMPORAL_TASK_QUEUE: taskQueue } });
    worker = await startWorker(platform, { address: env.address });
  });
  afterAll(async () => {
    await worker?.shutdown();
    await platform?.close();
    await env?.teardown();
  });

  it('keeps a distinctive input and result out of the server history, and the codec restores them', async () => {
    const secretText = `zebra-marmalade-${randomUUID()}`;
    const workflowId = `enc-${randomUUID()}`;
    const result = await env.client.workflow.execute('runSkillCall', {
      taskQueue,
      workflowId,
      args: [
        { skill: 'echo.shout', input: { requests: [{ text: secretText }] }, policy: activityPolicy('local') },
      ],
    });
    expect(result).toEqual({
      output: { results: [{ text: secretText.toUpperCase() }] },
      previews: [{ title: secretText.toUpperCase() }],
    });

    // Raw history straight from the server, bypassing the client's data converter.
    const raw = await env.connection.workflowService.getWorkflowExecutionHistory({
      namespace: 'default',
      execution: { workflowId },
    });
    const bytes = Buffer.from(temporal.api.history.v1.History.encode(raw.history!).finish());
    expect(bytes.length).toBeGreaterThan(500);
    for (const needle of [secretText, secretText.toUpperCase(), 'zebra', 'ZEBRA']) {
      expect(bytes.includes(Buffer.from(needle))).toBe(false);
    }
    const started = raw.history!.events!.find((e) => e.workflowExecutionStartedEventAttributes)!;
    const payload = started.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    expect(Buffer.from(payload.metadata!.encoding!).toString()).toBe('binary/encrypted');
    expect(Buffer.from(payload.metadata!['encryption-key-id']!).toString()).toBe('test');

    // The same bytes decode with the key: the string was there, only encrypted.
    const [decoded] = await new AesGcmPayloadCodec(TEST_KEYRING).decode([payload]);
    expect(Buffer.from(decoded!.data!).toString()).toContain(secretText);
  });

  it('reports a failing skill with its catalogue code and no retry for non-retryable codes', async () => {
    const handle = await env.client.workflow.start('runSkillCall', {
      taskQueue,
      workflowId: `fail-${randomUUID()}`,
      args: [
        {
          skill: 'echo.shout',
          input: { requests: [{ text: 'x', fail: 'FORBIDDEN' }] },
          policy: activityPolicy('local'),
        },
      ],
    });
    const err = await handle.result().catch((e: unknown) => e);
    const cause = (err as { cause?: { cause?: { type?: string; message?: string } } }).cause?.cause;
    expect(cause?.type).toBe('FORBIDDEN');
    expect(cause?.message).toBe('The API key is not allowed to do this.');
    const history = await handle.fetchHistory();
    const attempts = history.events!.filter((e) => e.activityTaskStartedEventAttributes);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.activityTaskStartedEventAttributes!.attempt).toBe(1);
  });
});

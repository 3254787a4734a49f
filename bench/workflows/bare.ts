/**
 * The baseline for `npm run bench:workflows`: a bare Temporal workflow that calls the same two
 * activities as the benchmark definition (domain search, then chat delivery) with fixed inputs,
 * the same activity options, and nothing of ours around it (no plan, references, templates,
 * progress memo or condition evaluation).
 */
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ActivityPolicy } from '../../activities/policy.js';
import type { ChatDelivery } from '../../activities/platform/chat-delivery.js';

export interface BareInput {
  searchInput: unknown;
  policy: ActivityPolicy;
  ownerId: string;
}

export async function bareTwoStep(args: BareInput): Promise<unknown> {
  const opts = {
    startToCloseTimeout: args.policy.startToCloseTimeout,
    scheduleToCloseTimeout: args.policy.scheduleToCloseTimeout,
    retry: args.policy.retry,
  };
  const search =
    proxyActivities<
      Record<string, (req: { input: unknown; view: 'workflow' }) => Promise<{ result_count: number }>>
    >(opts);
  const out = await search['hosting.search_domains']!({ input: args.searchInput, view: 'workflow' });
  const { deliverChatMessage } = proxyActivities<ChatDelivery>(opts);
  return deliverChatMessage({
    ownerId: args.ownerId,
    chatId: 'bench',
    title: 'Domains',
    message: `${out.result_count} domains found`,
    taskId: workflowInfo().workflowId,
    stepId: 'notify',
  });
}

/** The wire shape of a usage record (GET /v1/usage); lib/store/owners/usage-records.ts stores them. */
import { z } from 'zod';

/** One usage record as clients see it. */
export const UsageRecordSchema = z.object({
  id: z.string(),
  task_id: z.string(),
  skill: z.string(),
  key_id: z.string(),
  owner_id: z.string(),
  billed_to: z.object({ type: z.enum(['owner', 'team']), id: z.string() }),
  request_items: z.number().int(),
  credits: z.number(),
  queued: z.boolean(),
  decision: z
    .object({
      input_tokens: z.number().int().describe('Estimated input tokens of the decision requests.'),
      cost_usd: z.number().describe('Their price: 0.042 USD per million input tokens (no output charge).'),
    })
    .describe('Decision-helper usage this record paid for (relevance ranking, a workflow decide step).'),
  created_at: z.string(),
});
export type UsageRecord = z.infer<typeof UsageRecordSchema>;

import { domainSearchDefinition } from '../../test/helpers/definitions.js';

/** The two-step definition the workflow benchmarks run: a domain search, then a chat message. */
export const BENCH_DEFINITION = domainSearchDefinition(
  'Bench',
  'cedar.com',
  `  - id: notify
    send_chat_message:
      title: Domains
      message: "{{steps.search.result_count}} domains found"
`,
);

/** The two-step definition the workflow benchmarks run: a domain search, then a chat message. */
export const BENCH_DEFINITION = `title: Bench
start_when:
  manual: {}
steps:
  - id: search
    use_app_skill: hosting.search_domains
    input:
      requests:
        - query: cedar.com
  - id: notify
    send_chat_message:
      title: Domains
      message: "{{steps.search.result_count}} domains found"
`;

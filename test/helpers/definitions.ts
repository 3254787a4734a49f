/** Definition sources that several integration tests save and run. */

/**
 * A manual definition with a required `word` input and one step `shout` that shouts it with
 * `echo.shout`; later steps may be appended to it as they are (it ends with a newline).
 */
export function shoutWordDefinition(title: string): string {
  return `title: ${title}
start_when:
  manual:
    inputs:
      word: { type: string, required: true }
steps:
  - id: shout
    use_app_skill: echo.shout
    input:
      requests:
        - text: "{{inputs.word}}"
`;
}

/**
 * A scheduled definition (`schedule`: the lines under `schedule:`, e.g. `every: 1h`) with one
 * step `shout` that shouts `tick` with `echo.shout`.
 */
export function scheduledShoutDefinition(title: string, schedule: readonly string[]): string {
  return `title: ${title}
start_when:
  schedule:
${schedule.map((line) => `    ${line}\n`).join('')}steps:
  - id: shout
    use_app_skill: echo.shout
    input:
      requests:
        - text: tick
`;
}

/**
 * A manual definition whose first step `search` is a domain search for `query`; `rest` (YAML
 * step lines, each starting with `  - id:`) follows it.
 */
export function domainSearchDefinition(title: string, query: string, rest: string): string {
  return `title: ${title}
start_when:
  manual: {}
steps:
  - id: search
    use_app_skill: hosting.search_domains
    input:
      requests:
        - query: ${query}
${rest}`;
}

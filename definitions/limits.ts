/**
 * Size limits of the workflow language (documented in docs/workflow-language.md). The limits of
 * one template render at run time are in runtime/budget.ts.
 */
import { MAX_RUN_INPUT_CHARS } from './runtime/run-inputs.js';

export const LIMITS = {
  /** Source text, in UTF-8 bytes. */
  maxSourceBytes: 64 * 1024,
  /** Steps per definition. */
  maxSteps: 200,
  /** Characters per template (`title`, `message`, `chat_id`, or a step input string). */
  maxTemplateChars: 16 * 1024,
  /** `#each` blocks nested inside one another in one template. */
  maxEachDepth: 3,
  /** `for_each` and `parallel` steps nested inside one another. */
  maxGroupDepth: 3,
  /** Names in a definition's `outputs`. */
  maxOutputs: 20,
  /** Elements of one `for_each` (a literal list at compile time, any list at run start). */
  maxLoopItems: 10_000,
  /** Total size of a run's inputs, in characters of their JSON (names included). */
  maxRunInputChars: MAX_RUN_INPUT_CHARS,
  /** Characters per `if` expression. */
  maxConditionChars: 1024,
  /** Nesting depth of objects and lists in the source (YAML and JSON alike). */
  maxDepth: 32,
  /**
   * Lexical tokens of a YAML source (line breaks, indentation, indicators, values, comments),
   * counted before they are parsed: the `yaml` package's parse costs a few µs per token, and
   * about twice as much inside a flow collection (`[ ]`, `{ }`), where a token counts twice.
   */
  maxYamlTokens: 16_384,
  /** YAML anchors and aliases diagnosed one by one (none are allowed); past it the parse stops. */
  maxYamlAliases: 100,
  /** Diagnostics listed in one answer; one more says how many others were found. */
  maxDiagnostics: 100,
  /** Declared run inputs of a manual trigger. */
  maxRunInputs: 100,
  /** Upper bound of a `send_chat_message` step's `timeout`. */
  chatMaxTimeoutMs: 60_000,
  /** Upper bound of a `decide` step's `timeout` (the `decision` policy's schedule-to-close). */
  decideMaxTimeoutMs: 60_000,
  /**
   * The widest `retry` of a chat and a `decide` step: the `chat-delivery` and `decision` policy
   * profiles' attempts and longest interval (activities/policy.ts; a test keeps them equal).
   */
  chatMaxRetry: { maximumAttempts: 10, maximumIntervalMs: 60_000 },
  decideMaxRetry: { maximumAttempts: 2, maximumIntervalMs: 10_000 },
  /** Longest `wait` (`duration`, and `until` at run time). */
  maxWaitMs: 366 * 24 * 3600_000,
  /** Shortest and longest `wait_for_approval.timeout`. */
  minApprovalTimeoutMs: 60_000,
  maxApprovalTimeoutMs: 30 * 24 * 3600_000,
  /** Shortest and longest `wait_for_event.timeout`. */
  minEventTimeoutMs: 60_000,
  maxEventTimeoutMs: 30 * 24 * 3600_000,
  /** Most `wait_for_event.match` fields. */
  maxEventMatchFields: 10,
  /** Shortest and longest `schedule.every` interval. */
  minEveryMs: 60_000,
  maxEveryMs: 366 * 24 * 3600_000,
  /**
   * Shortest and longest `schedule.catchup_window`: the schedule server takes no shorter window
   * than 10 seconds.
   */
  minCatchupWindowMs: 10_000,
  maxCatchupWindowMs: 7 * 24 * 3600_000,
  /** Shortest step `timeout`. */
  minTimeoutMs: 1_000,
} as const;

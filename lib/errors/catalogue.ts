/**
 * The one catalogue of error codes. Every error a client can see is one of these, sent as
 * `{ error: { code, message, details } }` with the listed HTTP status. docs/errors.md must list
 * every code (a test enforces it).
 *
 * `retryable` tells the activity boundary whether Temporal may retry a failure of this type.
 */
export interface ErrorSpec {
  readonly status: number;
  readonly message: string;
  readonly retryable: boolean;
}

export const ERROR_CATALOGUE = {
  // --- request validation (400) ---
  INVALID_PARAMETER: { status: 400, message: 'A request parameter is invalid.', retryable: false },
  INVALID_BODY: { status: 400, message: 'The request body is not valid JSON or YAML.', retryable: false },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'The request content type is not supported.',
    retryable: false,
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.', retryable: false },
  MALFORMED_REQUEST: { status: 400, message: 'The HTTP request is malformed.', retryable: false },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large.', retryable: false },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time.', retryable: true },

  // --- authentication and authorisation ---
  UNAUTHENTICATED: { status: 401, message: 'A valid API token is required.', retryable: false },
  FORBIDDEN: { status: 403, message: 'The API key is not allowed to do this.', retryable: false },
  ANONYMOUS_NOT_ALLOWED: {
    status: 403,
    message: 'This skill needs an API token; it is not open to guests.',
    retryable: false,
  },

  // --- lookup ---
  NOT_FOUND: { status: 404, message: 'The resource does not exist.', retryable: false },
  ROUTE_NOT_FOUND: { status: 404, message: 'No route matches this method and path.', retryable: false },
  SKILL_NOT_FOUND: {
    status: 404,
    message: 'The app or skill does not exist or is not available.',
    retryable: false,
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    message: 'The method is not allowed on this resource.',
    retryable: false,
  },
  ICON_NOT_FOUND: { status: 404, message: 'The icon does not exist.', retryable: false },
  CONFLICT: { status: 409, message: 'The request conflicts with the current state.', retryable: false },
  EMBED_PENDING: {
    status: 409,
    message: 'The embed is not ready yet; poll its task and retry.',
    retryable: true,
  },
  EMBED_FAILED: {
    status: 409,
    message: 'The task that produces this embed failed; there is no file. See the task for its error.',
    retryable: false,
  },
  EXPECTED_USER_MISMATCH: {
    status: 409,
    message: 'expected_user_id does not match the caller.',
    retryable: false,
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    message: 'This Idempotency-Key was used with a different request body within 24 hours; use a new key.',
    retryable: false,
  },
  IDEMPOTENCY_KEY_IN_FLIGHT: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being handled; retry after Retry-After.',
    retryable: true,
  },
  INVALID_DEFINITION: {
    status: 422,
    message: 'The workflow definition is invalid; see details.diagnostics.',
    retryable: false,
  },

  RUN_INPUTS_TOO_LARGE: {
    status: 413,
    message: "The run's inputs are larger than the limit; see details.issues for the input.",
    retryable: false,
  },
  TEMPLATE_TOO_LARGE: {
    status: 422,
    message: 'The template renders more than the budget allows.',
    retryable: false,
  },
  INVALID_WAIT_UNTIL: {
    status: 422,
    message: "A wait step's until is not an ISO-8601 instant with an offset.",
    retryable: false,
  },
  WAIT_TOO_LONG: { status: 422, message: 'A wait step may wait at most 366 days.', retryable: false },
  WORKFLOW_DEPTH_EXCEEDED: {
    status: 422,
    message: 'use_workflow steps nest deeper than 5 runs; see details.max_depth.',
    retryable: false,
  },
  WORKFLOW_NOT_FOUND: {
    status: 422,
    message: 'A use_workflow step names a definition that no longer exists; see details.step.',
    retryable: false,
  },
  WORKFLOW_TREE_TOO_LARGE: {
    status: 422,
    message:
      'The workflows a run uses reach more than 25 use_workflow steps or 1,000,000 characters of plans; see details.',
    retryable: false,
  },
  INVALID_WORKFLOW_INPUT: {
    status: 422,
    message: "A use_workflow step's inputs do not match the child workflow's declared inputs.",
    retryable: false,
  },
  INVALID_RERUN: {
    status: 422,
    message: 'The re-run does not fit the run it re-runs; see details.issues.',
    retryable: false,
  },
  APPROVAL_NOT_WAITING: {
    status: 409,
    message: 'The run is not waiting for this approval (decided, timed out, ended, or no such step).',
    retryable: false,
  },
  INVALID_BACKFILL_WINDOW: {
    status: 422,
    message: 'The backfill window is not a past window of at most 1,000 schedule ticks; see details.issues.',
    retryable: false,
  },
  INVALID_APPROVAL_PAYLOAD: {
    status: 422,
    message: "The payload does not fit the approval's declared fields; see details.issues.",
    retryable: false,
  },
  APPROVAL_LINK_INVALID: {
    status: 403,
    message: 'The approval link is not valid: it is malformed, altered, or expired.',
    retryable: false,
  },
  DOWNLOAD_LINK_INVALID: {
    status: 403,
    message:
      'The download link is not valid: it is malformed or altered, the API key that asked for it was revoked, or that caller may no longer read the asset.',
    retryable: false,
  },
  DOWNLOAD_LINK_EXPIRED: {
    status: 403,
    message: 'The download link has expired; ask for a new one.',
    retryable: false,
  },
  HOOK_SIGNATURE_INVALID: {
    status: 401,
    message:
      'The webhook request is not accepted: the hook does not exist, or its X-Skillflow-Signature is missing, wrong, more than 5 minutes from now, or already used.',
    retryable: false,
  },
  APPROVAL_TIMED_OUT: {
    status: 409,
    message: 'No decision arrived before the approval timed out.',
    retryable: false,
  },
  EVENT_TIMED_OUT: {
    status: 409,
    message: 'No matching event arrived before the wait timed out.',
    retryable: false,
  },
  CHILD_RUN_CANCELLED: {
    status: 409,
    message: "A use_workflow step's child run was cancelled on its own.",
    retryable: false,
  },
  INVALID_CONCURRENCY_KEY: {
    status: 422,
    message: "The definition's concurrency key rendered longer than 256 characters.",
    retryable: false,
  },
  LOOP_ITEMS_NOT_A_LIST: {
    status: 422,
    message: "A for_each step's items are not a list.",
    retryable: false,
  },
  RUN_HISTORY_TOO_LONG: {
    status: 422,
    message: "The run's history is longer than a step view reads; open the run in the Temporal UI instead.",
    retryable: false,
  },
  TOO_LARGE: {
    status: 422,
    message: 'A for_each step takes at most 10,000 items.',
    retryable: false,
  },

  CANCELLED: { status: 409, message: 'The task was cancelled.', retryable: false },

  // --- limits ---
  RATE_LIMITED: { status: 429, message: 'Too many requests; retry after the reset time.', retryable: true },
  OWNER_LIMIT_REACHED: {
    status: 429,
    message: 'An owner limit (definitions, schedules, running runs, queued tasks or chat keys) is reached.',
    retryable: false,
  },
  ANONYMOUS_LIMIT_EXHAUSTED: {
    status: 429,
    message: 'The free anonymous allowance is used up.',
    retryable: false,
  },

  // --- encyclopedia ---
  UNSUPPORTED_LANGUAGE: {
    status: 400,
    message: 'The language is not a supported encyclopedia language.',
    retryable: false,
  },
  BUDGET_EXHAUSTED: {
    status: 429,
    message: 'The shared outbound request budget is used up; retry after the reset time.',
    retryable: true,
  },
  CONTENT_BLOCKED: {
    status: 502,
    message: 'The upstream content could not be made safe plain text; it was not served.',
    retryable: false,
  },
  IMAGE_REFUSED: {
    status: 403,
    message: 'The image is not served: host not allowed, not an image, too large or redirected.',
    retryable: false,
  },

  // --- upstreams and the platform ---
  UPSTREAM_UNAVAILABLE: { status: 503, message: 'An upstream provider is unavailable.', retryable: true },
  UPSTREAM_RATE_LIMITED: {
    status: 429,
    message: 'An upstream provider asked us to slow down.',
    retryable: true,
  },
  UPSTREAM_MALFORMED: {
    status: 503,
    message: 'An upstream provider sent a malformed answer.',
    retryable: true,
  },
  DEADLINE_EXCEEDED: {
    status: 503,
    message: 'The operation did not finish within its deadline.',
    retryable: true,
  },
  CHAT_KEY_MISSING: {
    status: 409,
    message:
      'The chat owner has no chat key registered, so the message cannot be sealed to them. Run `skillflow chats init` or open the workspace once, then run again.',
    retryable: false,
  },
  WEBHOOK_DELIVERY_FAILED: {
    status: 502,
    message: 'The message could not be delivered to the chat webhook.',
    retryable: true,
  },
  UNSAFE_CONTENT: {
    status: 502,
    message: 'The upstream content could not be made safe, so it is not served.',
    retryable: false,
  },
  SERVICE_UNAVAILABLE: { status: 503, message: 'A part of the service is unavailable.', retryable: true },
  INTERNAL: { status: 500, message: 'An internal error occurred.', retryable: false },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

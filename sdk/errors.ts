/**
 * Errors the SDK throws. An API answer outside 2xx becomes a {@link SkillflowApiError} carrying
 * the error envelope (`{ error: { code, message, details } }`); failures before any answer
 * (connection refused, timeouts, a body that is not JSON) become a {@link SkillflowClientError}.
 */

/** One failing field, as listed in `details.issues` of an INVALID_PARAMETER envelope. */
export interface ApiIssue {
  path: string;
  message: string;
  location?: string;
}

/** The API answered with an error envelope (or an unexpected non-2xx status). */
export class SkillflowApiError extends Error {
  override readonly name = 'SkillflowApiError';
  /** HTTP status, e.g. 400. */
  readonly status: number;
  /** A code from the API's error catalogue (docs/errors.md), e.g. `INVALID_PARAMETER`. */
  readonly code: string;
  /** `details` of the envelope: `issues`, `diagnostics`, `required_scope`, ... */
  readonly details: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** The failing field paths and messages of a validation error (empty when there are none). */
  get issues(): ApiIssue[] {
    const raw = this.details.issues;
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (i): i is ApiIssue =>
        typeof i === 'object' &&
        i !== null &&
        typeof (i as ApiIssue).path === 'string' &&
        typeof (i as ApiIssue).message === 'string',
    );
  }

  /** Builds the error from a non-2xx answer; tolerates bodies that are not envelopes. */
  static fromResponse(status: number, body: unknown): SkillflowApiError {
    const env = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
    if (env && typeof env.code === 'string' && typeof env.message === 'string') {
      const details =
        typeof env.details === 'object' && env.details !== null
          ? (env.details as Record<string, unknown>)
          : {};
      return new SkillflowApiError(status, env.code, env.message, details);
    }
    return new SkillflowApiError(
      status,
      'UNEXPECTED_RESPONSE',
      `The API answered HTTP ${status} without an error envelope.`,
    );
  }
}

/** Codes of {@link SkillflowClientError}. */
export type ClientErrorCode =
  | 'CONNECTION_FAILED'
  | 'INVALID_RESPONSE'
  | 'WAIT_TIMEOUT'
  | 'ABORTED'
  /** A guest call whose quote says it cannot run now (sdk/anonymous.ts). */
  | 'QUOTE_REFUSED'
  /** A guest call its `confirm` callback declined at the quote. */
  | 'QUOTE_DECLINED'
  /** A chat key file that is not one (sdk/chat-key-file.ts). */
  | 'CHAT_KEY_FILE_INVALID';

/** A failure on the client side: no usable answer from the API. */
export class SkillflowClientError extends Error {
  override readonly name = 'SkillflowClientError';
  readonly code: ClientErrorCode;

  constructor(code: ClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

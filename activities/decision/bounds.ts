/**
 * Input bounds and pricing of one decision. Every bound is checked before
 * anything is sent: an oversized call takes its fallback with zero requests.
 */

/** The model's context window, in tokens. */
export const CONTEXT_TOKENS = 32_768;
/** Tokens kept free for the model's own answer and framing. */
export const ANSWER_RESERVE_TOKENS = 2_048;
/** Largest serialized `state` object, in bytes. */
export const MAX_STATE_BYTES = 64 * 1024;
/** Largest whole request body, in bytes. */
export const MAX_REQUEST_BYTES = 80 * 1024;
/** Most questions in one request (40 relevance candidates fit). */
export const MAX_QUESTIONS = 40;
/** Conversation data: at most this many recent messages, each at most this long. */
export const MAX_CONVERSATION_MESSAGES = 8;
export const MAX_MESSAGE_CHARS = 2_000;
/** The optional conversation summary. */
export const MAX_SUMMARY_CHARS = 4_000;

/** USD per million input tokens; output is not charged. */
export const USD_PER_MILLION_INPUT_TOKENS = 0.042;

/**
 * A conservative token estimate of a serialized request: one token per 3 ASCII characters and
 * 1.5 per other code point, rounded up. Real tokenizers average about 4 characters a token on
 * English JSON and about one per CJK character, so this over-counts both.
 */
export function estimateTokens(serialized: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of serialized) {
    if (ch.charCodeAt(0) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 3 + other * 1.5);
}

/** Cost of `inputTokens` in USD, rounded to 9 decimals (a nano-dollar). */
export function decisionCostUsd(inputTokens: number): number {
  return Math.round((inputTokens * USD_PER_MILLION_INPUT_TOKENS * 1_000_000_000) / 1_000_000) / 1e9;
}

/** Which bound a call broke, or undefined when it fits. */
export type BoundBroken = 'questions' | 'state_bytes' | 'request_bytes' | 'tokens';

/** Checks a serialized request against every bound. */
export function checkBounds(args: {
  questionCount: number;
  stateJson: string;
  requestJson: string;
}): BoundBroken | undefined {
  if (args.questionCount > MAX_QUESTIONS) return 'questions';
  if (Buffer.byteLength(args.stateJson) > MAX_STATE_BYTES) return 'state_bytes';
  if (Buffer.byteLength(args.requestJson) > MAX_REQUEST_BYTES) return 'request_bytes';
  if (estimateTokens(args.requestJson) > CONTEXT_TOKENS - ANSWER_RESERVE_TOKENS) return 'tokens';
  return undefined;
}

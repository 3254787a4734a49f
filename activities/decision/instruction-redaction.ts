/**
 * The screening's deterministic fallback: exact-span redaction of known instruction patterns
 * (phrases that tell a model to drop its instructions, take a new role, reveal its prompt or
 * answer in a set way, and chat-template control tokens). It runs only where the decision helper
 * cannot answer the injection question; the decision model never produces spans, so the spans
 * come from these patterns alone. Each match is replaced by {@link REDACTED}; everything else is
 * kept as written.
 */

/** What a removed span becomes. */
export const REDACTED = '[removed]';

/** Known instruction patterns, matched case-insensitively; each is bounded (no unbounded run). */
export const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  // "ignore all previous instructions", "disregard the above rules", "forget your prompt": a
  // quantifier or a word naming the model's own instructions is required, so prose such as
  // "drivers who ignore the rules" is left alone.
  /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every)\s+(?:of\s+)?(?:the\s+|your\s+|these\s+|those\s+)?(?:(?:previous|prior|above|earlier|preceding|original|system)\s+)?|(?:the\s+|these\s+|those\s+)?(?:previous|prior|above|earlier|preceding|original|system|your)\s+)(?:instructions?|prompts?|directions?|rules|guidelines|context)\b/giu,
  // "you are now DAN", "from now on you are …" (to the end of the clause, at most 80 characters)
  /\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you(?:\s+are|\s+will)?)\b[^.!?\n]{0,80}/giu,
  // "reveal your system prompt", "print the hidden instructions"
  /\b(?:reveal|print|show|output|repeat|leak)\s+(?:me\s+)?(?:your|the)\s+(?:hidden\s+|secret\s+|initial\s+)?(?:system\s+prompt|prompt|instructions)\b/giu,
  // "new instructions:", "system prompt:", "system:" at a line start
  /\b(?:new|updated|real|actual)\s+instructions?\s*:/giu,
  /\bsystem\s+prompt\s*:/giu,
  /(?:^|\n)\s*(?:system|assistant)\s*:/giu,
  // "respond only with yes", "answer with exactly …" (to the end of the clause)
  /\b(?:respond|answer|reply|output)\s+(?:only|exactly|solely)\s+(?:with\s+)?[^.!?\n]{0,60}/giu,
  // chat-template control tokens
  /<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\|>/giu,
  /\[\/?INST\]|<<\/?SYS>>/gu,
];

/** `text` with every span a known instruction pattern matches replaced, and how many there were. */
export function redactInstructions(text: string): { text: string; spans: number } {
  let spans = 0;
  let out = text;
  for (const pattern of INSTRUCTION_PATTERNS) {
    out = out.replace(pattern, (match: string) => {
      spans += 1;
      // A span that began with a line break keeps it, so the lines around it stay apart.
      return match.startsWith('\n') ? `\n${REDACTED}` : REDACTED;
    });
  }
  return { text: out, spans };
}

/**
 * Deterministic answers of the decision simulator. Scores come from word overlap between the
 * criteria and the candidate text, so tests can predict them exactly.
 */
import { domainToUnicode } from 'node:url';

const STOPWORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'that',
  'this',
  'from',
  'are',
  'was',
  'not',
  'any',
  'all',
  'our',
  'your',
  'into',
]);
const LEGEND = ['irrelevant', 'weak fit', 'partial fit', 'good fit', 'exact fit'];

/** Criteria words: lower case, at least three letters, no stopwords, deduplicated. */
export function criteriaWords(criteria: string): string[] {
  const words = criteria.toLowerCase().match(/\p{L}[\p{L}\p{N}]{2,}/gu) ?? [];
  return [...new Set(words.filter((w) => !STOPWORDS.has(w)))];
}

/** Letters and digits of a candidate, with punycode labels shown as Unicode. */
function normalize(text: string): string {
  const unicode = text.replace(/[a-z0-9.-]*xn--[a-z0-9.-]+/gi, (m) => domainToUnicode(m) || m);
  return unicode.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Score 0-4: the share of criteria words found inside the candidate (substring, so `cedar`
 * matches `cedarhq.com`), times four, rounded; at least 1 when any word matches.
 */
export function overlapScore(criteria: string, candidate: string): number {
  const words = criteriaWords(criteria);
  if (words.length === 0) return 0;
  const hay = normalize(candidate);
  const matched = words.filter((w) => hay.includes(w)).length;
  if (matched === 0) return 0;
  return Math.max(1, Math.round((4 * matched) / words.length));
}

export function scoreAnswer(score: number) {
  const probabilities = LEGEND.map((_, i) => (i === score ? 0.8 : 0.05));
  return { score, legend: LEGEND[score] ?? '', probabilities, confidence: 0.8 };
}

/** choice: the option sharing most words with the state (first on ties). */
export function choiceAnswer(options: string[], stateText: string) {
  const ranked = options.map((o) => ({ o, s: overlapScore(o, stateText) }));
  const best = ranked.reduce((a, b) => (b.s > a.s ? b : a), ranked[0] ?? { o: '', s: 0 });
  const probabilities = Object.fromEntries(
    options.map((o) => [o, o === best.o ? 0.7 : 0.3 / Math.max(1, options.length - 1)]),
  );
  return { choice: best.o, probabilities, confidence: 0.7 };
}

/**
 * noul: 0.95 when the text holds an obvious injection phrase, 0.5 (ambiguous) when it holds
 * `maybe-injection`; otherwise, with a `question`, 0.1 plus 0.2 per overlap point of the
 * question's words in the text (0.1..0.9); else 0.05.
 */
/** A request whose `model` matches this is the screening's safeguard model. */
export const SAFEGUARD_MODEL = /^safeguard-/;

/**
 * The safeguard model's noul for one screened piece: it settles what the first model found
 * ambiguous. 0.95 for an obvious injection phrase or `maybe-injection-hostile`; 0.05 otherwise
 * (plain `maybe-injection` included).
 */
export function safeguardAnswer(text: string) {
  if (/ignore (all )?(previous|prior) instructions|maybe-injection-hostile/i.test(text))
    return { noul: 0.95 };
  return { noul: 0.05 };
}

export function noulAnswer(stateText: string, question?: string) {
  if (/ignore (all )?(previous|prior) instructions/i.test(stateText)) return { noul: 0.95 };
  if (/maybe-injection/i.test(stateText)) return { noul: 0.5 };
  if (question) return { noul: Math.round((0.1 + 0.2 * overlapScore(question, stateText)) * 100) / 100 };
  return { noul: 0.05 };
}

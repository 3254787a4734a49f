/**
 * Reduces a natural-language brief ("a cozy bakery in Berlin selling sourdough") to one short
 * keyword, because a brief must never be sent upstream as the search term. The
 * algorithm is deterministic and documented in README.md ("Keyword reduction").
 */

/** The longest keyword a brief is reduced to, in characters. */
export const MAX_KEYWORD_LENGTH = 20;

/** How many of the most distinctive words are joined into the keyword. */
const KEEP_WORDS = 2;

/**
 * English and German function words, plus the filler of search requests ("domain", "website",
 * "looking") and generic verbs that describe rather than name a business ("selling").
 */
const STOP_WORDS = new Set(
  // English
  (
    'a an the and or but nor of in on at to for from by with without into onto about over under ' +
    'is are was were be been being am do does did have has had can could will would shall should ' +
    'may might must i me my we our us you your he she it its they them their this that these those ' +
    'who whom which what where when why how all any some no not very so such than too just also ' +
    'as if then there here out up down off near like new best good great nice cool small big ' +
    'domain domains name names website websites site web page online brand company ' +
    'business idea ideas find search looking look want wants need needs please help get make ' +
    'selling sell sells sold offering offer offers providing provide provides making makes ' +
    'called named based located run runs running using use uses ' +
    // German
    'der die das den dem des ein eine einer eines einem einen und oder aber mit ohne von vom zu ' +
    'zum zur im in am an auf aus bei für fuer über ueber unter nach vor ist sind war waren sein ' +
    'ich du er sie es wir ihr mein meine unser unsere dein deine kein keine nicht sehr auch nur ' +
    'wie was wer wo wann warum welche welcher welches dieser diese dieses hier da dort neu neue ' +
    'neuer neues gut gute guter gutes klein kleine kleiner kleines groß große grosse ' +
    'webseite seite firma unternehmen suche suchen brauche brauchen möchte moechte will ' +
    'verkauft verkaufen verkaufe bietet bieten anbieten namens'
  ).split(/\s+/u),
);

/** Folds German umlauts and ß by convention, then strips remaining combining marks. */
function foldDiacritics(word: string): string {
  return word
    .replace(/ä/gu, 'ae')
    .replace(/ö/gu, 'oe')
    .replace(/ü/gu, 'ue')
    .replace(/ß/gu, 'ss')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC');
}

/** The words of a brief, lowercased and split on anything that is not a letter or digit. */
export function briefWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * Reduces a brief to one keyword, or undefined when nothing distinctive remains:
 * 1. NFKC-normalise, lowercase, split on non-letters/digits;
 * 2. drop English/German stop words and words shorter than 3 characters or all digits
 *    (stop words are checked before and after folding, so "für" and "fuer" both go);
 * 3. fold diacritics (ä→ae, ö→oe, ü→ue, ß→ss, other marks removed; other scripts stay IDN);
 * 4. rank by length (longer is more distinctive), ties by first position, drop repeats;
 * 5. keep the top two in their original order and join them if that fits in 20 characters,
 *    otherwise keep only the top word, cut to 20 characters.
 */
export function reduceBrief(text: string): string | undefined {
  const seen = new Set<string>();
  const words: { word: string; position: number }[] = [];
  briefWords(text).forEach((raw, position) => {
    if (STOP_WORDS.has(raw)) return;
    const word = foldDiacritics(raw);
    if (STOP_WORDS.has(word) || word.length < 3 || /^[0-9]+$/u.test(word) || seen.has(word)) return;
    seen.add(word);
    words.push({ word, position });
  });
  const ranked = [...words].sort((a, b) => b.word.length - a.word.length || a.position - b.position);
  const top = ranked.slice(0, KEEP_WORDS).sort((a, b) => a.position - b.position);
  const first = ranked[0];
  if (!first) return undefined;
  const joined = top.map((w) => w.word).join('');
  if ([...joined].length <= MAX_KEYWORD_LENGTH) return joined;
  return [...first.word].slice(0, MAX_KEYWORD_LENGTH).join('');
}

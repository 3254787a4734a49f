/**
 * How an HTML parser reads a text: whether it holds markup, and what it says once its character
 * references are decoded. The reading is parse5's HTML tokenizer (the one its tree builder and
 * parse5-sax-parser drive), used without a tree: the tokenizer alone reads a text in linear time,
 * while building a tree of deeply nested unknown elements takes quadratic time.
 *
 * A text is markup when any of these holds:
 * - `<!` (a comment, doctype or CDATA section), `<?` followed by a letter (a processing
 *   instruction) or `</` followed by anything but a letter or `>` (read as a comment);
 * - at any `<`, a tag name (`<name` or `</name`, ending where HTML ends it: at white space, `/`,
 *   `>` or the end of the text) that is a known element name ({@link KNOWN_ELEMENTS}) or a custom
 *   element name (a letter, then letters, digits, `.`, `_` or `-`, at least one `-`: the names
 *   scripts may define, `<my-el>`). Every `<` counts, also one inside what HTML reads as a longer
 *   name, so `<scr<script>ipt>` is markup. The one-letter names (`a b i p q s u`) are maths and
 *   code variables as often as tags: they count in end tags only, so `a<b>c` is prose and
 *   `a <b>bold</b>` is markup;
 * - a tag, as the tokenizer reads the text followed by one `>` (and, again, each attribute value
 *   holding a `<`), gives a value to an attribute that HTML or a script library acts on
 *   ({@link ACTIVE_ATTRIBUTE}: `onerror=…`, `style=…`, `href=…`, `data-bind=…`), or the text
 *   ends inside a quoted attribute value. Other attributes are prose: `if (a<b && c>d)` reads as
 *   a tag `b` with the attributes `&&` and `c`, and `when a<b, zero when a=b` as a tag `b,` whose
 *   attribute `a` has the value `b`;
 * - a bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069);
 * - a `javascript:` or `vbscript:` scheme (tabs and line breaks inside it ignored, as URL parsers
 *   ignore them), or a `data:` URL: `data:` followed by a media type, `;` or `,`.
 * Anything else is prose: `x<y`, `0<x<1`, `n<2k`, `List<T>`, `Map<K, V>`, `Vec<u8>`, `Class<?>`,
 * `<user@example.com>`. Unknown names are elements to an HTML parser, but inert ones: with no
 * attribute values and no known or custom name there is nothing to run, load or style.
 */
import { ErrorCodes, Tokenizer, type TokenHandler } from 'parse5';

/**
 * The element names an HTML parser gives meaning to: every HTML element, current or obsolete
 * (also those only old browsers knew), the roots of embedded SVG and MathML, and the SVG and
 * MathML elements that run script, animate, reference other content or switch the parser back to
 * HTML. Other SVG and MathML names (`path`, `text`, `rect`) mean nothing outside `<svg>` and
 * `<math>`, which are markup themselves.
 */
export const KNOWN_ELEMENTS: ReadonlySet<string> = new Set(
  [
    // HTML, current
    'a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption',
    'cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset',
    'figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins',
    'kbd label legend li link main map mark menu meta meter nav noscript object ol optgroup option',
    'output p picture pre progress q rp rt ruby s samp script search section select selectedcontent',
    'slot small source span strong style sub summary sup table tbody td template textarea tfoot th',
    'thead time title tr track u ul var video wbr',
    // HTML, obsolete, non-standard or experimental
    'acronym applet basefont bgsound big blink center comment content dir fencedframe font frame',
    'frameset ilayer image isindex keygen layer listing marquee menuitem multicol nextid nobr noembed',
    'noframes param permission plaintext portal rb rtc shadow spacer strike tt xml xmp',
    // SVG and MathML: the roots, and the elements that act or switch back to HTML
    'svg math animate animatecolor animatemotion animatetransform discard desc feimage foreignobject',
    'set use annotation annotation-xml maction malignmark mglyph mi mn mo ms mtext semantics',
  ].flatMap((line) => line.split(' ')),
);

/**
 * Attribute names whose value HTML or a script library acts on: event handlers (`on…`), the
 * attributes that style, name, link, load, focus or reorder an element (`style`, `id`, `href`,
 * `dir` …), and those of script libraries that scan a page (`data-bind`, `x-on:click`,
 * `@click`, `:href`, `_`): every name with a `-` or `:` in it, or starting with `@` or `:`.
 */
const ACTIVE_ATTRIBUTE =
  /^(?:on|[@:][a-z])|^[a-z_].*[-:]|^(?:_|action|autofocus|background|class|contenteditable|data|dir|form|formaction|href|id|is|name|nonce|part|ping|popover|popovertarget|poster|script|slot|src|srcdoc|srcset|style|tabindex|target|xmlns)$/;

/** Comments, doctypes, CDATA sections, processing instructions, `</` read as a comment. */
const DECLARATION = /<!|<\?[A-Za-z]|<\/(?![A-Za-z>])/;
/**
 * A tag name at a `<`, not running into a further `<` (such a name holds a `<`, so it is neither
 * known nor custom; the name at that further `<` is matched on its own).
 */
const TAG_NAME = /<(\/?)([A-Za-z][^\t\n\f\r /><]*)(?=[\t\n\f\r />]|$)/g;
/** The characters of a custom element name (the HTML standard's PotentialCustomElementName). */
const CUSTOM_ELEMENT =
  /^[a-z][-.\d_a-z\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C-\u200D\u203F\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}]*$/u;
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const SCRIPT_URL = /\b(?:java|vb)script\s*:/i;
const DATA_URL = /\bdata\s*:\s*(?:[a-z][\w.+-]*\/[\w.+-]+|[;,])/i;

/** True when `text`, read as HTML, holds markup (the rule is in the module comment). */
export function readsAsMarkup(text: string): boolean {
  const url = text.replace(/[\t\n\r]/g, '');
  return (
    BIDI_CONTROL.test(text) ||
    SCRIPT_URL.test(url) ||
    DATA_URL.test(url) ||
    DECLARATION.test(text) ||
    hasMarkupName(text) ||
    hasActiveAttribute(text)
  );
}

/** `text` with its character references decoded as HTML decodes them in text (`&amp;` → `&`). */
export function decodeReferences(text: string): string {
  let decoded = '';
  const append = (token: { chars: string }) => {
    decoded += token.chars;
  };
  // With every `<` written as a reference the tokenizer reads text only, never a tag.
  tokenize(text.replaceAll('<', '&lt;'), {
    onCharacter: append,
    onWhitespaceCharacter: append,
    onNullCharacter: append,
  });
  return decoded;
}

function hasMarkupName(text: string): boolean {
  for (const [, slash = '', name = ''] of text.matchAll(TAG_NAME)) {
    const lower = name.replace(/[A-Z]/g, (c) => c.toLowerCase());
    if (lower.includes('-') && CUSTOM_ELEMENT.test(lower)) return true;
    if (KNOWN_ELEMENTS.has(lower) && (slash !== '' || lower.length > 1)) return true;
  }
  return false;
}

function hasActiveAttribute(text: string): boolean {
  // Values holding a `<` are read again, as tags of their own; reading more than the text's
  // length again is nesting no prose has, so the text counts as markup.
  const pending = [text];
  let budget = 2 * text.length;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    budget -= next.length;
    let found = budget < 0;
    const tag = (token: { attrs: { name: string; value: string }[] }) => {
      for (const { name, value } of token.attrs) {
        if (value !== '' && ACTIVE_ATTRIBUTE.test(name)) found = true;
        else if (value.includes('<')) pending.push(value);
      }
    };
    // The `>` closes a tag left open at the end, which whatever follows the text could close.
    tokenize(`${next}>`, {
      onStartTag: tag,
      onEndTag: tag,
      onParseError: (err) => {
        found ||= err.code === ErrorCodes.eofInTag;
      },
    });
    if (found) return true;
  }
  return false;
}

function tokenize(text: string, handler: Partial<TokenHandler>): void {
  const ignore = () => undefined;
  new Tokenizer(
    {},
    {
      onComment: ignore,
      onDoctype: ignore,
      onStartTag: ignore,
      onEndTag: ignore,
      onEof: ignore,
      onCharacter: ignore,
      onNullCharacter: ignore,
      onWhitespaceCharacter: ignore,
      ...handler,
    },
  ).write(text, true);
}

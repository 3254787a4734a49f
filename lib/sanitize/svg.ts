/**
 * The one SVG sanitiser (icons now, the power-design schematic later). DOMPurify with its SVG
 * profile on jsdom (DOMPurify on a lighter DOM such as linkedom sanitises nothing), plus hooks
 * for what DOMPurify keeps by default:
 * - `href` / `xlink:href` to anything but a local `#id` (external `<use>`, links, `data:` URLs);
 * - `url(...)` to anything but a local `#id`, in attributes, `style=""` and `<style>`, and CSS
 *   that can fetch or run something (`@import`, `expression(`, `image-set(`);
 * - `<image>`, `<foreignObject>`, `<animate>`, `<set>` and the other animation elements, which
 *   can retarget `href` after sanitising.
 *
 * Why DOMPurify rather than our own allow-list serialiser: it already handles the parser
 * differentials (namespace confusion, mXSS, entity-encoded `javascript:`), which an in-house
 * serialiser would have to re-learn. After it runs, a second, independent check walks the result
 * ({@link assertSafe}); anything that survives but should not have makes the whole SVG unsafe,
 * so the caller answers 502 and never serves it.
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { JSDOM } from 'jsdom';

/** Larger inputs are refused outright (real icons are a few KiB; schematics well under this). */
export const MAX_SVG_INPUT_BYTES = 512 * 1024;

/** Thrown when the input cannot be made safe; the message names the rule, never the content. */
export class UnsafeSvgError extends Error {
  constructor(readonly reason: string) {
    super(`SVG cannot be made safe: ${reason}`);
    this.name = 'UnsafeSvgError';
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const LOCAL_REF = /^#[A-Za-z_][\w.:-]*$/u;
/** Elements never served, whatever DOMPurify's profile allows. */
const FORBIDDEN_TAGS = [
  'script',
  'foreignObject',
  'image',
  'feImage',
  'animate',
  'animateMotion',
  'animateTransform',
  'set',
  'discard',
  'iframe',
  'embed',
  'object',
  'a',
];
const FORBIDDEN_CSS = /@import|expression\s*\(|image-set\s*\(|-moz-binding|behavior\s*:|javascript:/iu;
const HREF_ATTRS = new Set(['href', 'xlink:href']);

/** Decodes CSS escapes (`\75 rl(` → `url(`) and drops comments before CSS is checked. */
function normaliseCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//gu, '')
    .replace(/\\([0-9a-fA-F]{1,6})\s?/gu, (_, hex: string) =>
      String.fromCodePoint(parseInt(hex, 16) || 0xfffd),
    )
    .replace(/\\(.)/gu, '$1');
}

const URL_FUNCTION = /url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/giu;

/** True when every `url(...)` in the CSS or attribute value points to a local `#id`. */
export function cssIsSafe(value: string): boolean {
  const css = normaliseCss(value);
  if (FORBIDDEN_CSS.test(css)) return false;
  const refs = [...css.matchAll(URL_FUNCTION)];
  // A `url(` the pattern cannot read (unbalanced quotes, nesting) counts as unsafe.
  const opened = css.match(/url\s*\(/giu)?.length ?? 0;
  return opened === refs.length && refs.every((m) => LOCAL_REF.test((m[2] ?? '').trim()));
}

let instance: { purify: DOMPurify; window: JSDOM['window'] } | undefined;

function purifier(): { purify: DOMPurify; window: JSDOM['window'] } {
  if (instance) return instance;
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue;
    if (HREF_ATTRS.has(name) && !LOCAL_REF.test(value.trim())) data.keepAttr = false;
    else if (name.startsWith('on')) data.keepAttr = false;
    else if (/url\s*\(|\\|@import|expression/iu.test(value) && !cssIsSafe(value)) data.keepAttr = false;
  });
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && !cssIsSafe(node.textContent ?? '')) node.textContent = '';
  });
  instance = { purify, window };
  return instance;
}

/** Independent post-check of the sanitised tree: throws {@link UnsafeSvgError} on any survivor. */
function assertSafe(root: Element): void {
  if (root.namespaceURI !== SVG_NS || root.localName !== 'svg') throw new UnsafeSvgError('no svg root');
  const forbidden = new Set(FORBIDDEN_TAGS.map((t) => t.toLowerCase()));
  for (const el of [root, ...root.querySelectorAll('*')]) {
    if (forbidden.has(el.localName.toLowerCase())) throw new UnsafeSvgError('forbidden element');
    if (el.localName === 'style' && !cssIsSafe(el.textContent ?? ''))
      throw new UnsafeSvgError('unsafe stylesheet');
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) throw new UnsafeSvgError('event handler');
      if (HREF_ATTRS.has(name) && !LOCAL_REF.test(attr.value.trim()))
        throw new UnsafeSvgError('external reference');
      if (!cssIsSafe(attr.value)) throw new UnsafeSvgError('external url()');
    }
  }
}

/**
 * Sanitises one SVG document and returns it as well-formed XML (`<svg xmlns=…>…</svg>`), or
 * throws {@link UnsafeSvgError} when the input is too large, has no SVG root, or still holds
 * something executable or external after sanitising.
 */
export function sanitizeSvg(input: string): string {
  if (Buffer.byteLength(input, 'utf8') > MAX_SVG_INPUT_BYTES) throw new UnsafeSvgError('too large');
  const { purify, window } = purifier();
  const fragment = purify.sanitize(input, {
    USE_PROFILES: { svg: true, svgFilters: true },
    ADD_TAGS: ['use'],
    FORBID_TAGS: FORBIDDEN_TAGS,
    RETURN_DOM_FRAGMENT: true,
  });
  const roots = [...fragment.children];
  const root = roots[0];
  if (!root || roots.length !== 1) throw new UnsafeSvgError('no single svg root');
  assertSafe(root);
  return new window.XMLSerializer().serializeToString(root);
}

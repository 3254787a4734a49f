/**
 * The one SVG sanitiser (icons and the power-design schematic). DOMPurify with its SVG profile
 * on jsdom (DOMPurify on a lighter DOM such as linkedom sanitises nothing), plus hooks for what
 * DOMPurify keeps by default:
 * - `href` / `xlink:href` to anything but a local `#id` (external `<use>`, links, `data:` URLs);
 * - `url(...)` to anything but a local `#id`, in attributes, `style=""` and `<style>`, and CSS
 *   that can fetch or run something (`@import`, `expression(`, `image-set(`) (svg-css.ts);
 * - `<image>`, `<foreignObject>`, `<a>`, `<discard>` and every element DOMPurify's profile lacks;
 * - animations outside the safe SMIL subset (svg-smil.ts), which could retarget a link or an
 *   event handler after sanitising.
 *
 * Why DOMPurify rather than our own allow-list serialiser: it already handles the parser
 * differentials (namespace confusion, mXSS, entity-encoded `javascript:`), which an in-house
 * serialiser would have to re-learn. After it runs, the result is serialised as XML, parsed back
 * as the browser will read it (`image/svg+xml`), and an independent check walks that tree
 * ({@link assertSafe}); anything that survives but should not have makes the whole SVG unsafe,
 * so the caller answers 502 and never serves it.
 *
 * Contract: {@link sanitizeSvg} returns a sanitised SVG or throws {@link UnsafeSvgError}, and
 * nothing else, whatever the input: the caller maps that one error to its refusal.
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { JSDOM } from 'jsdom';
import { cssIsSafe, LOCAL_REF } from './svg-css.js';
import { MAX_SVG_DEPTH, withinShapeLimits } from './svg-shape.js';
import { ANIMATION_ATTRIBUTES, animationIsSafe, ANIMATION_TAGS, isAnimation } from './svg-smil.js';

export { cssIsSafe } from './svg-css.js';
export { MAX_SVG_DEPTH, MAX_SVG_ELEMENTS } from './svg-shape.js';

/** Larger inputs are refused outright (real icons are a few KiB; schematics well under this). */
export const MAX_SVG_INPUT_BYTES = 512 * 1024;

/**
 * The sanitiser's revision: part of every versioned icon URL, so a change to what it keeps or
 * removes gives every icon a new URL (browsers keep a versioned URL's bytes for a year). Raise it
 * with any change to this module or the modules it uses; svg-revision.test.ts pins their
 * contents to it.
 */
export const SVG_SANITISER_REVISION = 1;

/** Thrown when the input cannot be made safe; the message names the rule, never the content. */
export class UnsafeSvgError extends Error {
  constructor(readonly reason: string) {
    super(`SVG cannot be made safe: ${reason}`);
    this.name = 'UnsafeSvgError';
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Elements never served, whatever DOMPurify's profile allows. */
const FORBIDDEN_TAGS = [
  'script',
  'foreignObject',
  'image',
  'feImage',
  'discard',
  'animateColor',
  'iframe',
  'embed',
  'object',
  'a',
];
const FORBIDDEN_NAMES = new Set(FORBIDDEN_TAGS.map((t) => t.toLowerCase()));
const HREF_ATTRS = new Set(['href', 'xlink:href']);

interface Purifier {
  purify: DOMPurify;
  window: JSDOM['window'];
}

let instance: Purifier | undefined;

function purifier(): Purifier {
  if (instance) return instance;
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window);
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (!(node instanceof window.Element)) return;
    if (data.tagName === 'style' && !cssIsSafe(node.textContent ?? '')) node.textContent = '';
    // Removed the way DOMPurify removes a node itself; its walk goes on with the next node.
    if (isAnimation(node) && !animationIsSafe(node)) node.parentNode?.removeChild(node);
  });
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue;
    if (HREF_ATTRS.has(name) && !LOCAL_REF.test(value.trim())) data.keepAttr = false;
    else if (name.startsWith('on')) data.keepAttr = false;
    else if (/url\s*\(|\\|@import|expression/iu.test(value) && !cssIsSafe(value)) data.keepAttr = false;
  });
  instance = { purify, window };
  return instance;
}

/** Independent check of the tree as served: throws {@link UnsafeSvgError} on any survivor. */
function assertSafe(root: Element): void {
  if (root.namespaceURI !== SVG_NS || root.localName !== 'svg') throw new UnsafeSvgError('no svg root');
  const walk: { el: Element; depth: number }[] = [{ el: root, depth: 1 }];
  for (let next = walk.pop(); next; next = walk.pop()) {
    const { el, depth } = next;
    if (depth > MAX_SVG_DEPTH) throw new UnsafeSvgError('nested too deeply');
    if (el.namespaceURI !== SVG_NS) throw new UnsafeSvgError('foreign element');
    if (FORBIDDEN_NAMES.has(el.localName.toLowerCase())) throw new UnsafeSvgError('forbidden element');
    if (isAnimation(el) && !animationIsSafe(el)) throw new UnsafeSvgError('unsafe animation');
    if (el.localName === 'style' && !cssIsSafe(el.textContent ?? ''))
      throw new UnsafeSvgError('unsafe stylesheet');
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) throw new UnsafeSvgError('event handler');
      if ((HREF_ATTRS.has(name) || name.endsWith(':href')) && !LOCAL_REF.test(attr.value.trim()))
        throw new UnsafeSvgError('external reference');
      if (!cssIsSafe(attr.value)) throw new UnsafeSvgError('external url()');
    }
    for (const child of el.children) walk.push({ el: child, depth: depth + 1 });
  }
}

/** The one `<svg>` DOMPurify left, serialised as XML. */
function purified(input: string, { purify, window }: Purifier): string {
  const fragment: DocumentFragment | null = purify.sanitize(input, {
    USE_PROFILES: { svg: true, svgFilters: true },
    ADD_TAGS: ['use', ...ANIMATION_TAGS],
    // Animation attributes DOMPurify's profile lacks; svg-smil.ts checks their values.
    ADD_ATTR: ANIMATION_ATTRIBUTES,
    FORBID_TAGS: FORBIDDEN_TAGS,
    RETURN_DOM_FRAGMENT: true,
  });
  // No fragment at all when the parsed document has no body (a `<frameset>` replaces it).
  const roots = fragment ? [...fragment.children] : [];
  const root = roots[0];
  if (!root || roots.length !== 1) throw new UnsafeSvgError('no single svg root');
  return new window.XMLSerializer().serializeToString(root);
}

/** The sanitised text parsed back as the browser reads `image/svg+xml`; refused if it is not XML. */
function reparsed(xml: string, { window }: Purifier): Element {
  const doc = new window.DOMParser().parseFromString(xml, 'image/svg+xml');
  const root = doc.documentElement;
  if (root.getElementsByTagNameNS('*', 'parsererror').length > 0 || root.localName === 'parsererror')
    throw new UnsafeSvgError('not well-formed');
  return root;
}

/**
 * Sanitises one SVG document and returns it as well-formed XML (`<svg xmlns=…>…</svg>`), or
 * throws {@link UnsafeSvgError} when the input is too large (bytes, elements or nesting; see
 * svg-shape.ts), has no single SVG root, or still holds something executable or external after
 * sanitising. Any other failure inside the parser or DOMPurify is also an {@link UnsafeSvgError}
 * (fail closed), so no input makes this throw anything else.
 */
export function sanitizeSvg(input: string): string {
  if (typeof input !== 'string') throw new UnsafeSvgError('not text');
  if (Buffer.byteLength(input, 'utf8') > MAX_SVG_INPUT_BYTES) throw new UnsafeSvgError('too large');
  const p = purifier();
  try {
    if (!withinShapeLimits(input)) throw new UnsafeSvgError('too many or too deeply nested elements');
    const xml = purified(input, p);
    assertSafe(reparsed(xml, p));
    return xml;
  } catch (err) {
    if (err instanceof UnsafeSvgError) throw err;
    throw new UnsafeSvgError('unreadable');
  }
}

/**
 * The SMIL animation subset the SVG sanitiser keeps, so animated icon sets (spinners, drawn-on
 * line icons) still move: `<animate>`, `<animateTransform>`, `<set>` and `<animateMotion>`.
 *
 * An animation is a classic way round a sanitiser: it can set an attribute after sanitising, so
 * `<set attributeName="href" to="javascript:…">` turns a harmless link into a script. An
 * animation is kept only when all of these hold, and is removed as a whole otherwise:
 * - its target (`attributeName`) is one of {@link ANIMATABLE_ATTRIBUTES}: geometry, transforms
 *   and paint, none of which holds a link, an event handler, a style sheet or a resource;
 * - it has no `href`/`xlink:href` (that would retarget it to another element) and no event
 *   attribute (`onbegin`, `onend`, `onrepeat`, …);
 * - its values (`values`, `from`, `to`, `by`, and `path` of `<animateMotion>`) hold no colon, so
 *   no URL scheme, and every `url(...)` in them points to a local `#id`.
 *
 * `<animateMotion>` is kept because it has no `attributeName` at all: it moves its element along
 * path data, which cannot name a link or a script. Its `<mpath>` child is kept by the same
 * local-`#id` rule as every other reference. `<discard>` (it removes elements) and the obsolete
 * `<animateColor>` are not kept.
 */
import { cssIsSafe } from './svg-css.js';

/** The animation elements kept (their SVG spelling). */
export const ANIMATION_TAGS = ['animate', 'animateTransform', 'animateMotion', 'set'] as const;

/** Attributes of the kept animations that DOMPurify's SVG profile does not allow by itself. */
export const ANIMATION_ATTRIBUTES = ['calcMode', 'from', 'to'];

/** The attributes an animation may change. */
export const ANIMATABLE_ATTRIBUTES: ReadonlySet<string> = new Set([
  // geometry
  'd',
  'points',
  'pathLength',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'dx',
  'dy',
  'width',
  'height',
  'offset',
  'transform',
  'rotate',
  // paint and visibility
  'opacity',
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-opacity',
  'stroke-width',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-linecap',
  'stroke-linejoin',
  'stop-color',
  'stop-opacity',
  'color',
  'flood-color',
  'flood-opacity',
  'visibility',
  'display',
  'stdDeviation',
]);

const ANIMATION_NAMES: ReadonlySet<string> = new Set(ANIMATION_TAGS.map((t) => t.toLowerCase()));
/** Attributes of an animation that hold the values it sets. */
const VALUE_ATTRIBUTES: ReadonlySet<string> = new Set(['values', 'from', 'to', 'by', 'path']);

/** True for `<animate>`, `<animateTransform>`, `<animateMotion>` and `<set>`, in any case. */
export function isAnimation(el: Element): boolean {
  return ANIMATION_NAMES.has(el.localName.toLowerCase());
}

/** True when an animation value cannot be or hold a URL. */
export function animationValueIsSafe(value: string): boolean {
  return !value.includes(':') && cssIsSafe(value);
}

/** True when the animation element may be kept (the rules in this module's comment). */
export function animationIsSafe(el: Element): boolean {
  let targets = 0;
  for (const attr of el.attributes) {
    const name = attr.name.toLowerCase();
    if (name === 'href' || name.endsWith(':href') || name.startsWith('on')) return false;
    if (VALUE_ATTRIBUTES.has(name) && !animationValueIsSafe(attr.value)) return false;
    if (name === 'attributename') {
      if (!ANIMATABLE_ATTRIBUTES.has(attr.value.trim())) return false;
      targets += 1;
    }
  }
  return el.localName.toLowerCase() === 'animatemotion' ? targets === 0 : targets === 1;
}

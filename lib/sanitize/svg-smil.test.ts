/**
 * The SMIL subset of the SVG sanitiser: the animated icon corpus (svg-spinners, line-md; see
 * test/fixtures/svg/README.md) comes through unchanged, and an animation that could set a link,
 * an event handler or a URL is removed as a whole while the rest of the picture stays.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from './svg.js';

const NS = 'http://www.w3.org/2000/svg';
const svg = (inner: string) => `<svg xmlns="${NS}" xmlns:xlink="http://www.w3.org/1999/xlink">${inner}</svg>`;

interface IconSet {
  width: number;
  height: number;
  total: number;
  icons: Record<string, string>;
}

const corpus = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../test/fixtures/svg/animated-icons.json'), 'utf8'),
) as { sets: Record<string, IconSet> };

describe('animated icon sets', () => {
  const { window } = new JSDOM('');
  /** The icon as an XML parser reads and re-serialises it: what an unchanged sanitised copy is. */
  const canonical = (text: string) =>
    new window.XMLSerializer().serializeToString(
      new window.DOMParser().parseFromString(text, 'image/svg+xml').documentElement,
    );
  const animations = (text: string) =>
    text.match(/<(?:animate|animateTransform|animateMotion|set)\b/gu) ?? [];

  it('every svg-spinners and line-md icon of the corpus comes through unchanged, animations included', () => {
    const counts: Record<string, { icons: number; unchanged: number; animations: number }> = {};
    for (const [prefix, set] of Object.entries(corpus.sets)) {
      const c = { icons: 0, unchanged: 0, animations: 0 };
      for (const body of Object.values(set.icons)) {
        const icon = `<svg xmlns="${NS}" width="24" height="24" viewBox="0 0 ${set.width} ${set.height}">${body}</svg>`;
        const out = sanitizeSvg(icon);
        c.icons += 1;
        if (out === canonical(icon)) c.unchanged += 1;
        expect(animations(out)).toEqual(animations(icon));
        c.animations += animations(out).length;
      }
      counts[prefix] = c;
    }
    expect(counts).toEqual({
      'svg-spinners': { icons: 46, unchanged: 46, animations: 262 },
      'line-md': { icons: 114, unchanged: 114, animations: 526 },
    });
  });

  it('a repeated attributeName is one attribute to the HTML parser: the first is kept', () => {
    const input = svg('<circle r="1"><animate attributeName="r" attributename="href" values="1"/></circle>');
    expect(sanitizeSvg(input)).toBe(svg('<circle r="1"><animate attributeName="r" values="1"/></circle>'));
  });

  it('keeps each element of the subset with its timing and value attributes', () => {
    const kept = [
      '<animate attributeName="stroke-dashoffset" begin="0.2s" dur="0.6s" fill="freeze" values="28;0"/>',
      '<animate attributeName="fill" calcMode="spline" keySplines=".3 0 .7 1" keyTimes="0;1" dur="1s" values="url(#g);red"/>',
      '<animateTransform attributeName="transform" type="rotate" additive="sum" dur="1s" repeatCount="indefinite" from="0 12 12" to="360 12 12"/>',
      '<set attributeName="opacity" begin="a1.end" to="1"/>',
      '<animateMotion dur="2s" path="M0 0L10 10" rotate="auto" keyPoints="0;1" keyTimes="0;1"/>',
      '<animateMotion dur="2s"><mpath href="#p"/></animateMotion>',
    ];
    for (const anim of kept) {
      const input = svg(`<path id="p" d="M0 0h9"/><circle r="1">${anim}</circle>`);
      expect(sanitizeSvg(input)).toBe(input);
    }
  });

  it.each([
    ['set on href', '<set attributeName="href" to="javascript:alert(1)"/>'],
    ['animate on xlink:href', '<animate attributeName="xlink:href" from="#" to="javascript:alert(1)"/>'],
    [
      'animate on HREF (another attribute, still not in the list)',
      '<animate attributeName="HREF" values="1"/>',
    ],
    ['set on an event handler', '<set attributeName="onclick" to="alert(1)"/>'],
    ['set on style', '<set attributeName="style" to="fill:red"/>'],
    ['set on class', '<set attributeName="class" to="x"/>'],
    ['no target', '<animate values="1;2" dur="1s"/>'],
    ['onbegin', '<animate attributeName="r" values="1;2" onbegin="alert(1)"/>'],
    ['onend', '<animate attributeName="r" values="1;2" onend="alert(1)"/>'],
    ['onrepeat', '<animate attributeName="r" values="1;2" onrepeat="alert(1)"/>'],
    ['href retargeting the animation', '<animate href="#p" attributeName="r" values="1;2"/>'],
    ['xlink:href retargeting the animation', '<set xlink:href="#p" attributeName="opacity" to="0"/>'],
    ['a URL scheme in values', '<animate attributeName="fill" values="javascript:alert(1)"/>'],
    ['an external url() in values', '<animate attributeName="fill" values="red;url(https://x.test/p#g)"/>'],
    ['an external url() in to', '<set attributeName="fill" to="url(//x.test/p#g)"/>'],
    ['a data: URL in from', '<animate attributeName="fill" from="data:image/svg+xml,x" to="red"/>'],
    ['a colon in by', '<animate attributeName="x" by="a:b"/>'],
    ['a scheme in the motion path', '<animateMotion path="javascript:alert(1)"/>'],
    ['a target on animateMotion', '<animateMotion attributeName="href" path="M0 0"/>'],
    ['animateColor (obsolete)', '<animateColor attributeName="fill" values="red;blue"/>'],
    ['discard', '<discard begin="1s"/>'],
  ])('removes %s and keeps the rest', (_name, anim) => {
    const rest = '<path id="p" d="M0 0h9"/><circle r="1"/>';
    expect(sanitizeSvg(svg(`<path id="p" d="M0 0h9"/><circle r="1">${anim}</circle>`))).toBe(svg(rest));
  });

  it('removes an external mpath reference but keeps the motion', () => {
    expect(
      sanitizeSvg(
        svg(
          '<circle r="1"><animateMotion dur="2s"><mpath href="https://x.test/p#a"/></animateMotion></circle>',
        ),
      ),
    ).toBe(svg('<circle r="1"><animateMotion dur="2s"><mpath/></animateMotion></circle>'));
  });
});

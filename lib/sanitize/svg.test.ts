/**
 * lib/sanitize/svg.ts: every input ends as a sanitised SVG or an {@link UnsafeSvgError}, never
 * any other exception (the routes map that one error to 502 UNSAFE_CONTENT), including every
 * public vector of test/fixtures/svg. The animation subset is in svg-smil.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cssIsSafe } from './svg-css.js';
import { MAX_SVG_DEPTH, MAX_SVG_ELEMENTS, sanitizeSvg, UnsafeSvgError } from './svg.js';

const NS = 'http://www.w3.org/2000/svg';
const svg = (inner: string) => `<svg xmlns="${NS}">${inner}</svg>`;
const nested = (levels: number) => svg('<g>'.repeat(levels - 1) + '</g>'.repeat(levels - 1));

/** The refusal's reason, or a description of whatever else happened. */
function refusal(input: string): string {
  try {
    return `served: ${sanitizeSvg(input)}`;
  } catch (err) {
    return err instanceof UnsafeSvgError ? err.reason : `other exception: ${String(err)}`;
  }
}

describe('sanitizeSvg refuses with UnsafeSvgError and nothing else', () => {
  it.each([
    [
      'a <frameset> after the svg (DOMPurify returns no body)',
      `${svg('<rect/>')}<frameset>`,
      'no single svg root',
    ],
    ['a <frameset> before the svg', `<frameset>${svg('<rect/>')}`, 'no single svg root'],
    ['an empty input', '', 'no single svg root'],
    ['HTML without an svg', '<p>text</p>', 'no single svg root'],
    ['an element other than svg left as the root', '<div><style>p{}</style></div>', 'no svg root'],
    ['two svg roots', svg('') + svg(''), 'no single svg root'],
    ['a value that is not text', undefined as unknown as string, 'not text'],
    ['an input over 512 KiB', svg(`<desc>${'x'.repeat(512 * 1024)}</desc>`), 'too large'],
    [
      `${MAX_SVG_DEPTH + 1} levels of nesting`,
      nested(MAX_SVG_DEPTH + 1),
      'too many or too deeply nested elements',
    ],
    ['70,000 levels of nesting', nested(70_000), 'too many or too deeply nested elements'],
    [
      `${MAX_SVG_ELEMENTS + 1} elements`,
      svg('<rect/>'.repeat(MAX_SVG_ELEMENTS)),
      'too many or too deeply nested elements',
    ],
    // DOMPurify keeps the U+0001, which XML cannot hold: served, the SVG would not even parse.
    ['a control character XML cannot hold', svg('\u0001<rect/>'), 'not well-formed'],
  ])('%s', (_name, input, reason) => {
    expect(refusal(input)).toBe(reason);
  });

  it('serves an SVG nested exactly to the limit', () => {
    const input = nested(MAX_SVG_DEPTH);
    expect(sanitizeSvg(input)).toBe(input.replace(/<g><\/g>/u, '<g/>'));
  });

  it('a <frameset> inside the svg is an unknown SVG element, removed', () => {
    expect(sanitizeSvg(svg('<frameset onload=alert(1)><rect/>'))).toBe(svg('<rect/>'));
  });

  it('reads a CSS escape past U+10FFFF as U+FFFD instead of throwing', () => {
    const input = svg('<style>rect{fill:\\110000}</style><rect style="fill:\\FFFFFF"/>');
    expect(sanitizeSvg(input)).toBe(input);
    expect(cssIsSafe('\\110000 url(#a)')).toBe(true);
    expect(cssIsSafe('\\0  \\D800 url(https://x.test/)')).toBe(false);
    expect(cssIsSafe('\\75 rl(https://x.test/)')).toBe(false);
  });

  it('reads CSS in one pass: 100,000 unclosed url( or comment openers', () => {
    expect(cssIsSafe('url('.repeat(100_000))).toBe(false);
    expect(cssIsSafe(`url(#${'a'.repeat(2000)})`)).toBe(false);
    expect(cssIsSafe(`${'/*x*/'.repeat(100_000)}fill:url("#g")`)).toBe(true);
    expect(cssIsSafe(`${'/* */'.repeat(100_000)}fill:url(https://x.test/)`)).toBe(false);
    // An unterminated comment runs to the end, as in CSS: what follows is no declaration.
    expect(cssIsSafe(`${'/*'.repeat(100_000)}url(https://x.test/)`)).toBe(true);
    expect(refusal(svg(`<rect style="${'url('.repeat(60_000)}"/>`))).toBe(`served: ${svg('<rect/>')}`);
  });
});

interface Vector {
  id: number;
  title: string;
  payload: string;
}

const FIXTURES = path.resolve(import.meta.dirname, '../../test/fixtures/svg');
const vectors = (file: string): Vector[] =>
  (JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as { vectors: Vector[] }).vectors;

describe('the public vector corpora', () => {
  const corpus = [...vectors('dompurify-vectors.json'), ...vectors('h5sc-vectors.json')];
  const inSvg = (v: Vector) =>
    `<svg xmlns="${NS}" xmlns:xlink="http://www.w3.org/1999/xlink">${v.payload}</svg>`;

  it('every DOMPurify and H5SC vector, as-is and inside an <svg>, ends sanitised or refused', () => {
    const outcomes = new Map<string, number>();
    for (const v of corpus)
      for (const input of [v.payload, inSvg(v)]) {
        const out = refusal(input);
        const kind = out.startsWith('served: ') ? 'served' : out;
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
      }
    expect(corpus.length).toBe(372);
    expect(Object.fromEntries(outcomes)).toEqual({
      served: 387,
      'no single svg root': 348,
      'no svg root': 8,
      'not well-formed': 1,
    });
  });

  it('the vectors holding a <frameset> are refused or sanitised', () => {
    const framesets = corpus.filter((v) => /<frameset/iu.test(v.payload));
    const root = `<svg xmlns="${NS}" xmlns:xlink="http://www.w3.org/1999/xlink"`;
    expect(framesets.flatMap((v) => [refusal(v.payload), refusal(inSvg(v))])).toEqual([
      'no single svg root',
      'no single svg root',
      'no single svg root',
      `served: ${root}/>`,
      'no single svg root',
      `served: ${root}>\n\n</svg>`,
    ]);
  });
});

/**
 * lib/text/safe-plain-text.ts and the markup rule of ./markup-check.ts: prose with code and
 * maths in it passes (the 200 extracts of test/fixtures/text/prose-extracts.json), markup and
 * script stay blocked (our vectors, the public XSS corpora of test/fixtures/svg and the icon
 * route's SVG corpus), also when written as character references.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { html } from 'parse5';
import { describe, expect, it } from 'vitest';
import { SVG_XSS_CORPUS } from '../../test/helpers/svg-xss-corpus.js';
import { decodeReferences, KNOWN_ELEMENTS } from './markup-check.js';
import { MAX_DECODINGS, toSafePlainText } from './safe-plain-text.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../test/fixtures');
const fixture = <T>(file: string): T => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as T;
const BLOCKED = { ok: false, reason: 'markup' };
/** Large enough that no text of these tests is cut. */
const UNBOUNDED = 100_000;

describe('prose passes', () => {
  const { extracts } = fixture<{ extracts: { text: string; plain?: string }[] }>('text/prose-extracts.json');

  it('every extract of the prose corpus comes back unblocked, references decoded and noise flattened', () => {
    expect(new Set(extracts.map((e) => e.text)).size).toBe(200);
    const differing = extracts.filter((e) => {
      const out = toSafePlainText(e.text, UNBOUNDED);
      return !out.ok || out.text !== (e.plain ?? e.text);
    });
    expect(differing).toEqual([]);
    expect(extracts.filter((e) => e.plain !== undefined).length).toBeGreaterThan(30);
  });

  it('an answer is a fixpoint: it sanitises to itself', () => {
    for (const e of extracts) {
      const out = toSafePlainText(e.text, UNBOUNDED);
      expect(out.ok && toSafePlainText(out.text, UNBOUNDED)).toEqual(out);
    }
  });

  it.each([
    ['x<y', 'x<y'],
    ['List<T>', 'List<T>'],
    ['a<b>c', 'a<b>c'],
    ['AT&amp;T', 'AT&T'],
    ['&lt;', '<'],
    ['if (a<b && c>d)', 'if (a<b && c>d)'],
    ['Vec<u8>', 'Vec<u8>'],
    ['0<x<1', '0<x<1'],
    ['n<2k', 'n<2k'],
    ['Map<K, V> and Map<String, Integer>', 'Map<K, V> and Map<String, Integer>'],
    ['HashMap<String, Vec<Option<Box<T>>>>', 'HashMap<String, Vec<Option<Box<T>>>>'],
    ['List<? extends Number> and Class<?>', 'List<? extends Number> and Class<?>'],
    ['impl Iterator<Item = u32>', 'impl Iterator<Item = u32>'],
    ['when a<b, zero when a=b and positive when a>b', 'when a<b, zero when a=b and positive when a>b'],
    [
      '{\\displaystyle 0<x<1} and {\\displaystyle f(x)=x^{2}}',
      '{\\displaystyle 0<x<1} and {\\displaystyle f(x)=x^{2}}',
    ],
    ['Jane Doe <jane@example.org>', 'Jane Doe <jane@example.org>'],
    ['React fragments <></>', 'React fragments <></>'],
    ['Big data: an overview', 'Big data: an overview'],
    ['AT&amp;amp;T, R&D, x &lt y', 'AT&T, R&D, x < y'],
    ['&lt;b&gt; one-letter tags read as prose: a&lt;b&gt;c', '<b> one-letter tags read as prose: a<b>c'],
  ])('%j passes as %j', (input, text) => {
    expect(toSafePlainText(input, UNBOUNDED)).toEqual({ ok: true, text });
  });

  it('references are decoded as HTML decodes them in text; a `<` stays a character', () => {
    expect(decodeReferences('&amp;&lt;&#60;&#x3C;&copy&notit; &AElig; AT&T <b>&#0;')).toBe(
      '&<<<©¬it; Æ AT&T <b>\uFFFD',
    );
  });
});

describe('markup and script stay blocked', () => {
  const separators = ['\t', '\n', '\f', '\r', ' ', '/'];
  it.each([
    ['script element', '<script>alert(1)</script>'],
    ['script, mixed case', '<ScRiPt>alert(1)</sCrIpT>'],
    ['script with src, upper case', '<SCRIPT SRC=//evil.test/x.js></SCRIPT>'],
    ['img onerror', '<img src=x onerror=alert(1)>'],
    ...separators.map((sep) => [
      `img onerror, separated by ${JSON.stringify(sep)}`,
      `<img${sep}src=x${sep}onerror=alert(1)>`,
    ]),
    ['img onerror, newlines around =', '<img\nsrc=x onerror\n=\nalert(1)>'],
    ['svg onload', '<svg/onload=alert(1)>'],
    ['a href javascript:', '<a href="javascript:alert(1)">x</a>'],
    ['a href elsewhere', '<a href=//evil.test>x</a>'],
    ['javascript: as a reference', 'javascript&colon;alert(1)'],
    ['javascript: with a decimal reference', '&#106;avascript:alert(1)'],
    ['javascript: with a hex reference', '&#x6A;avascript:alert(1)'],
    ['javascript: split by a tab', 'java\tscript:alert(1)'],
    ['javascript: split by a tab reference', 'java&#9;script:alert(1)'],
    ['javascript:, mixed case', 'JaVaScRiPt:alert(1)'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['data: URL', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['data: URL without a media type', 'data:,alert(1)'],
    ['split script tag', '<scr<script>ipt>alert(1)</scr</script>ipt>'],
    ['double-encoded script', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['double-encoded script, numeric', '&#60;script&#62;alert(1)&#60;/script&#62;'],
    ['double-encoded script, no semicolons', '&ltscript&gtalert(1)&lt/script&gt'],
    ['triple-encoded script', '&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt;'],
    ['double-encoded img', '&#x3C;img src=x onerror=alert(1)&#x3E;'],
    ['double-encoded bold', 'a &lt;b&gt;bold&lt;/b&gt; claim'],
    ['comment', 'before <!-- hidden --> after'],
    ['comment breakout', '<!--><img src=x onerror=alert(1)>-->'],
    ['doctype', '<!doctype html>'],
    ['CDATA section', '<![CDATA[<script>alert(1)</script>]]>'],
    ['processing instruction', '<?xml version="1.0"?>'],
    ['processing instruction, php', '<?php echo 1; ?>'],
    ['end tag read as a comment', 'a </ b> c'],
    ['iframe srcdoc', '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>'],
    ['math namespace confusion', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
    ['style element', '<style>body{background:url(//evil.test)}</style>'],
    ['base href', '<base href="//evil.test/">'],
    ['meta refresh', '<meta http-equiv="refresh" content="0;url=//evil.test">'],
    ['custom element', '<my-element>'],
    ['custom element, closed', 'x <my-element></my-element> y'],
    ['noscript mXSS', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">'],
    ['template', '<template><script>alert(1)</script></template>'],
    ['object data', '<object data="javascript:alert(1)">'],
    ['embed', '<embed src=//evil.test/x.swf>'],
    ['link', '<link rel=stylesheet href=//evil.test/x.css>'],
    ['form', '<form action=//evil.test><input name=q>'],
    ['body onload', '<body onload=alert(1)>'],
    ['details ontoggle', '<details open ontoggle=alert(1)>'],
    ['input autofocus', '<input autofocus onfocus=alert(1)>'],
    ['image', '<image src=x onerror=alert(1)>'],
    ['bare line break', 'one<br>two'],
    ['bold', 'a <b>bold</b> claim'],
    ['end tag alone', 'x</b>'],
    ['unknown element with a handler', '<xss id=x tabindex=1 onfocus=alert(1)>'],
    ['unknown element with onclick', 'click <x onclick=alert(1)>here'],
    ['one-letter element with a handler', 'a<b onmouseover=alert(1)>c'],
    ['one-letter element with a style', '<p style="position:fixed;top:0">'],
    ['library attribute data-bind', '<x data-bind="html: payload">'],
    ['library attribute x-init', '<x x-init="alert(1)">'],
    ['library attribute @click', '<x @click="alert(1)">'],
    ['library attribute :href', '<x :href="url">'],
    ['library attribute _', '<x _="on click call alert(1)">'],
    ['namespaced attribute', '<x xlink:href="//evil.test">'],
    ['unterminated quoted attribute value', 'x<y onclick="alert(1)'],
    ['a handler inside an attribute value', '<x title="<y onclick=alert(1)>">'],
    ['a handler inside an encoded attribute value', '<x a=\'&lt;y b="&lt;z onclick=alert(1)&gt;"&gt;\'>'],
    ['attribute values nested deeper than the text is long', `see <x a=${'<x/a='.repeat(1_000)}1> ok`],
    ['right-to-left override', 'abc\u202Edef'],
    ['right-to-left override as a reference', 'abc&#x202E;def'],
    ['left-to-right isolate', 'abc\u2066def'],
    // The limits of the rule: prose that reads as markup stays blocked.
    ['prose: a type argument named like an element', 'List<Object> holds any object'],
    ['prose: a scheme-like title', 'JavaScript: The Good Parts is a book by Douglas Crockford'],
    ['prose: naming a tag', 'The <br> element inserts a line break'],
    ['prose: a hyphenated name after `<`, read as a custom element', 'loop while i<n-1 holds'],
    ['prose: a value for an active attribute name after `<`', 'if x<y then id = 1'],
  ])('%s', (_name, input) => {
    expect(toSafePlainText(input, UNBOUNDED)).toEqual(BLOCKED);
  });

  it('a text with more layers of references than are decoded is blocked', () => {
    const layered = (layers: number) => `AT&${'amp;'.repeat(layers)}T`;
    expect(toSafePlainText(layered(MAX_DECODINGS), 100)).toEqual({ ok: true, text: 'AT&T' });
    expect(toSafePlainText(layered(MAX_DECODINGS + 1), 100)).toEqual(BLOCKED);
  });

  interface Vector {
    id: number;
    title: string;
    payload: string;
  }
  const vectors = (file: string) => fixture<{ vectors: Vector[] }>(`svg/${file}`).vectors;

  it('every public XSS vector is blocked, but for four that hold no markup', () => {
    const passing = (file: string) =>
      vectors(file)
        .filter((v) => toSafePlainText(v.payload, UNBOUNDED).ok)
        .map((v) => v.id);
    // DOMPurify 21 and 215 are the texts "123456" and " ", not attacks.
    expect(passing('dompurify-vectors.json')).toEqual([21, 215]);
    // H5SC 26 is UTF-7 (+ADw- for `<`), which no browser decodes any more; H5SC 100 is a template
    // whose [a]…[e] stand for separators (filled in above as "img onerror, separated by …").
    expect(passing('h5sc-vectors.json')).toEqual([26, 100]);
  });

  it('every SVG vector of the icon route corpus is blocked', () => {
    expect(SVG_XSS_CORPUS.filter((c) => toSafePlainText(c.body, UNBOUNDED).ok)).toEqual([]);
  });

  it('every element name the HTML parser knows, and every custom element name, reads as markup', () => {
    const names = [...Object.values(html.TAG_NAMES), ...KNOWN_ELEMENTS].map((n) => n.toLowerCase());
    expect(names.filter((n) => !KNOWN_ELEMENTS.has(n))).toEqual([]);
    const oneLetter = names.filter((n) => n.length === 1);
    expect([...new Set(oneLetter)].sort()).toEqual(['a', 'b', 'i', 'p', 'q', 's', 'u']);
    for (const name of names) {
      expect(toSafePlainText(`x </${name}> y`, UNBOUNDED)).toEqual(BLOCKED);
      if (name.length > 1) expect(toSafePlainText(`x <${name.toUpperCase()}> y`, UNBOUNDED)).toEqual(BLOCKED);
    }
    for (const name of ['my-el', 'X-Foo', 'font-face', 'a-', 'emotion-\u00E9t\u00E9', 'n-1']) {
      expect(toSafePlainText(`x <${name}> y`, UNBOUNDED)).toEqual(BLOCKED);
    }
    // Not custom element names: a `@` or `;` is not allowed in one.
    expect(toSafePlainText('x <jane@example-mail.org> y <n-1;> z', UNBOUNDED)).toMatchObject({ ok: true });
  });
});

describe('normalisation', () => {
  it('refuses what is not a string', () => {
    expect(toSafePlainText(42, 100)).toEqual({ ok: false, reason: 'not_text' });
    expect(toSafePlainText(null, 100)).toEqual({ ok: false, reason: 'not_text' });
  });

  it('drops control characters, collapses whitespace, composes to NFC and bounds at a word boundary', () => {
    expect(toSafePlainText('  x < y\tand\u0000 z\n\n', 100)).toEqual({ ok: true, text: 'x < y and z' });
    expect(toSafePlainText('Cafe\u0301 and cafe&#x301;', 100)).toEqual({ ok: true, text: 'Café and café' });
    expect(toSafePlainText('zero\u200Bwidth&nbsp;space', 100)).toEqual({
      ok: true,
      text: 'zero width space',
    });
    expect(toSafePlainText('one two three four five', 12)).toEqual({ ok: true, text: 'one two…' });
    expect(toSafePlainText('Vec<u8> and List<T> and Map<K, V>', 21)).toEqual({
      ok: true,
      text: 'Vec<u8> and List<T>…',
    });
  });

  it('reads a large adversarial text in linear time', () => {
    // Building a tree of these nested unknown elements takes a minute; reading tokens, well under a second.
    const nested = '<x>'.repeat(50_000) + '</y>'.repeat(50_000);
    const started = performance.now();
    expect(toSafePlainText(nested, 100)).toMatchObject({ ok: true });
    expect(toSafePlainText('<a'.repeat(250_000), 100)).toMatchObject({ ok: true });
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

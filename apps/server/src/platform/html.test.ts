import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from './html.js';

describe('sanitizeRichText', () => {
  it('keeps text formatting, tables and links', () => {
    const html =
      '<h3>协议</h3><p style="text-align:center">第<strong>一</strong>条</p><table><tr><td colspan="2">x</td></tr></table>';
    expect(sanitizeRichText(html)).toBe(html);
    expect(sanitizeRichText('<a href="https://example.com/a">a</a>')).toBe(
      '<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">a</a>',
    );
  });

  it('drops scripts, handlers, script URLs, frames, forms and unsafe styles', () => {
    const out = sanitizeRichText(
      '<p onclick="x()">t</p><script>alert(1)</script><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">j</a>' +
        '<iframe src="https://evil"></iframe><form><input></form><p style="background:url(javascript:x);color:#f00">c</p>' +
        '<a href="//evil.example/">p</a>',
    );
    expect(out).not.toMatch(/script|onclick|onerror|iframe|form|input|background|evil/i);
    expect(out).toContain('<p>t</p>');
    expect(out).toContain('<p style="color:#f00">c</p>');
  });

  it('keeps an embedded or uploaded image, and drops one at a path of the portal or any other address', () => {
    const embedded = '<img src="data:image/png;base64,iVBORw0KGgo=" alt="a" />';
    const uploaded = '<img src="/api/resources/logos/0b6f3c0e-6c1d-4d7e-9a51-1f0a2b3c4d5e" />';
    expect(sanitizeRichText(`<p>${embedded}${uploaded}</p>`)).toBe(`<p>${embedded}${uploaded}</p>`);
    // Every reader's browser would request these with their cookies: /cas/logout signs them out.
    for (const src of [
      '/cas/logout',
      'cas/logout',
      '../cas/logout',
      'https://portal.example/cas/logout',
      'http://tracker.example/p.gif',
      'data:image/svg+xml;base64,PHN2Zz4=',
      '/api/resources/logos/0b6f3c0e-6c1d-4d7e-9a51-1f0a2b3c4d5e/../../../cas/logout',
    ]) {
      expect(sanitizeRichText(`<p>t<img src="${src}"></p>`), src).toBe('<p>t</p>');
    }
  });
});

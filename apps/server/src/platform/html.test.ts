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
});

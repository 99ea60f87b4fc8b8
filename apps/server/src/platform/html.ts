/**
 * Rich text (registration agreements, later notice bodies) is sanitised when it is stored, so what
 * the API answers is safe wherever it is shown; the browser sanitises again with DOMPurify.
 */
import sanitizeHtml from 'sanitize-html';
import { UPLOADED_IMAGE } from '@portal/contracts';

/**
 * Where a rich text's image may come from: embedded (a PNG, JPEG, GIF or WebP data URL; never SVG)
 * or an image the tenant uploaded. Never another path or address: every reader's browser requests
 * an image with their cookies, and a request to the portal can act (`/cas/logout` signs the reader
 * out), while the content security policy lets no other site's image load anyway.
 */
const RICH_TEXT_IMAGE = new RegExp(
  `^(?:data:image/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}|${UPLOADED_IMAGE})$`,
);

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...['p', 'br', 'hr', 'div', 'span', 'strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'blockquote', 'pre', 'code'],
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'a', 'img'],
    ...['table', 'thead', 'tbody', 'tr', 'th', 'td', 'caption'],
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    '*': ['style'],
  },
  allowedStyles: {
    '*': {
      color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i],
      'text-align': [/^(left|right|center|justify)$/],
      'font-weight': [/^(bold|normal|\d{3})$/],
    },
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  // Links leave the portal in a new tab that cannot reach back into it.
  transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
  // An image from anywhere else is dropped whole.
  exclusiveFilter: (frame) => frame.tag === 'img' && !RICH_TEXT_IMAGE.test(frame.attribs.src ?? ''),
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** Escapes text for XML and HTML (CAS responses, SAML requests, the server's own pages). */
export const escapeMarkup = (v: string) =>
  v.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * A small page the server renders itself (the sign-on server's notices, the example system):
 * `body` is markup the caller has escaped; the title is text.
 */
export function plainPage(lang: 'zh' | 'en', title: string, body: string): string {
  return `<!doctype html><html lang="${lang === 'en' ? 'en' : 'zh-CN'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeMarkup(title)}</title>
<style>body{font-family:system-ui,'PingFang SC','Microsoft YaHei','WenQuanYi Micro Hei',sans-serif;background:#f0f2f5;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;color:#1f1f1f}main{background:#fff;border-radius:12px;padding:32px;max-width:520px;margin:16px;box-shadow:0 12px 40px rgba(15,35,95,.12)}h1{font-size:20px;margin:0 0 12px}dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:16px 0}dt{color:#595959}dd{margin:0}a{color:#0958d9}.note{color:#595959;font-size:14px}</style>
</head><body><main role="main"><h1>${escapeMarkup(title)}</h1>${body}</main></body></html>`;
}

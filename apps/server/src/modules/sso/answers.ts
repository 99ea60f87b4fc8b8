/**
 * The writers of the sign-on server's validation answers: the only code that puts a user's name
 * into a protocol's text, so that no name can change an answer's structure (ADR 032).
 * - CAS 1.0 (`/cas/validate`) is lines: `yes`, the user, and nothing else a client could read as
 *   another line or a trimmed name. A name that is not one line (isOneLine: no line break,
 *   control or invisible character, no space at an end) is answered `no`.
 * - XML (serviceValidate, proxyValidate and their /p3 forms; samlValidate) escapes markup in text
 *   and in attributes, and keeps white space in attributes as character references (a parser
 *   turns a raw tab or line break there into a space). A value XML 1.0 cannot hold at all (a
 *   control character but tab, line feed and carriage return; half a UTF-16 pair; U+FFFE, U+FFFF)
 *   is not written: the answer is a failure instead of a document no client can parse.
 * - JSON is JSON.stringify's, which escapes everything that needs it.
 * Names come from the database, which the grammar keeps clean for anything written since; a name
 * stored before it is exactly what these writers are for.
 */
import { isOneLine } from '@portal/contracts';
import type { Validation } from './sso.service.js';

// eslint-disable-next-line no-control-regex -- matching what XML 1.0 cannot hold is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/u;

/** Whether XML 1.0 can carry `value` at all (escaped). */
export const xmlWritable = (value: string): boolean => !NOT_XML.test(value);

const TEXT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // A raw carriage return reaches the application as a line feed.
  '\r': '&#13;',
};
const ATTRIBUTE_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '\n': '&#10;', '\t': '&#9;' };

/** `value` as XML character data (also safe inside a quoted attribute, but see xmlAttribute). */
export const xmlText = (value: string): string => value.replace(/[&<>"'\r]/g, (c) => TEXT_ESCAPES[c]!);

/** `value` as a quoted XML attribute's content, its white space kept. */
export const xmlAttribute = (value: string): string => value.replace(/[&<>"'\r\n\t]/g, (c) => ATTRIBUTE_ESCAPES[c]!);

/** The values of a successful validation an answer writes: the user and every text attribute. */
const textsOf = (v: Extract<Validation, { ok: true }>): string[] => [
  v.user,
  ...Object.values(v.attributes).filter((a): a is string => typeof a === 'string'),
];

/** `v`, or the failure an XML answer gives instead when one of its values cannot be written. */
export function forXml(v: Validation): Validation {
  if (!v.ok) return xmlWritable(v.description) ? v : { ...v, description: 'The request cannot be told in XML' };
  if (textsOf(v).every(xmlWritable)) return v;
  return { ok: false, code: 'INTERNAL_ERROR', description: "The user's names cannot be written in XML" };
}

/** The CAS 1.0 body: `yes` and the user on one line each, or `no` (also for a name that is not one line). */
export function cas1Body(v: Validation | null): string {
  return v?.ok && isOneLine(v.user) ? `yes\n${v.user}\n` : 'no\n';
}

/** A CAS 2.0/3.0 service validation answer, in XML or (format=JSON) JSON. */
export function renderValidation(validation: Validation, json: boolean, withAttributes: boolean): string {
  if (json) {
    const v = validation;
    return JSON.stringify({
      serviceResponse: v.ok
        ? { authenticationSuccess: { user: v.user, ...(withAttributes ? { attributes: v.attributes } : {}) } }
        : { authenticationFailure: { code: v.code, description: v.description } },
    });
  }
  const v = forXml(validation);
  const body = v.ok
    ? `<cas:authenticationSuccess><cas:user>${xmlText(v.user)}</cas:user>${
        withAttributes
          ? `<cas:attributes>${Object.entries(v.attributes)
              .map(([k, val]) => `<cas:${k}>${xmlText(String(val))}</cas:${k}>`)
              .join('')}</cas:attributes>`
          : ''
      }</cas:authenticationSuccess>`
    : `<cas:authenticationFailure code="${v.code}">${xmlText(v.description)}</cas:authenticationFailure>`;
  return `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">${body}</cas:serviceResponse>\n`;
}

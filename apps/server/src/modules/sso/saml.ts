/**
 * SAML 1.1 ticket validation (`POST /cas/samlValidate?TARGET=<service>`), as Apereo CAS serves it
 * for the clients that validate this way to receive attributes (java-cas-client's
 * Saml11TicketValidator, phpCAS, mod_auth_cas with CASValidateSAML): the request is a SOAP 1.1
 * envelope whose samlp:Request carries the ticket as AssertionArtifact; the answer is a SOAP
 * envelope with a saml1p:Response holding an assertion (subject, authentication statement,
 * attributes) on success, or a RequestDenied status with the reason and no assertion.
 */
import { randomBytes } from 'node:crypto';
import { forXml, xmlAttribute, xmlText, xmlWritable } from './answers.js';
import type { Validation } from './sso.service.js';

/** How far the assertion's validity reaches either side of now (Apereo's default skew, 30 s). */
const SKEW_MS = 30_000;

/**
 * The ticket and request id of a samlValidate request. Like Apereo, the body is searched, not
 * parsed (clients differ in prefixes and namespaces; a comment may precede the envelope).
 */
export function samlRequestOf(body: string): { ticket: string | null; requestId: string | null } {
  const artifact = /<(?:[\w-]+:)?AssertionArtifact(?:\s[^>]*)?>([^<]*)<\/(?:[\w-]+:)?AssertionArtifact>/.exec(body);
  const requestId = /<(?:[\w-]+:)?Request\b[^>]*\sRequestID="([^"]{1,128})"/.exec(body);
  return { ticket: artifact?.[1]?.trim() || null, requestId: requestId?.[1] ?? null };
}

const id = () => `_${randomBytes(16).toString('hex')}`;
const iso = (ms: number) => new Date(ms).toISOString();

const envelope = (response: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>${response}</SOAP-ENV:Body></SOAP-ENV:Envelope>`;

export function samlResponse(
  validation: Validation,
  opts: { service: string; requestId: string | null; issuer: string; now?: number },
): string {
  // A value XML cannot hold makes the answer a failure (answers.ts).
  const v = forXml(validation);
  const now = opts.now ?? Date.now();
  const issued = iso(now);
  // No request id: Apereo answers in response to the service's host.
  let inResponseTo = opts.requestId;
  if (!inResponseTo) {
    try {
      inResponseTo = new URL(opts.service).host;
    } catch {
      inResponseTo = '';
    }
  }
  // The request's own values too: one XML cannot hold is left out rather than break the answer.
  if (!xmlWritable(inResponseTo)) inResponseTo = '';
  const audience = xmlWritable(opts.service) ? opts.service : '';
  const head = `<saml1p:Response xmlns:saml1p="urn:oasis:names:tc:SAML:1.0:protocol" InResponseTo="${xmlAttribute(inResponseTo)}" IssueInstant="${issued}" MajorVersion="1" MinorVersion="1" ResponseID="${id()}">`;
  if (!v.ok) {
    return envelope(
      `${head}<saml1p:Status><saml1p:StatusCode Value="saml1p:RequestDenied"/><saml1p:StatusMessage>${xmlText(
        v.description,
      )}</saml1p:StatusMessage></saml1p:Status></saml1p:Response>`,
    );
  }
  const subject =
    `<saml1:Subject><saml1:NameIdentifier>${xmlText(v.user)}</saml1:NameIdentifier>` +
    '<saml1:SubjectConfirmation><saml1:ConfirmationMethod>urn:oasis:names:tc:SAML:1.0:cm:artifact</saml1:ConfirmationMethod></saml1:SubjectConfirmation></saml1:Subject>';
  const attributes = Object.entries(v.attributes)
    .map(
      ([name, value]) =>
        `<saml1:Attribute AttributeName="${xmlAttribute(name)}" AttributeNamespace="http://www.ja-sig.org/products/cas/"><saml1:AttributeValue>${xmlText(
          String(value),
        )}</saml1:AttributeValue></saml1:Attribute>`,
    )
    .join('');
  return envelope(
    `${head}<saml1p:Status><saml1p:StatusCode Value="saml1p:Success"/></saml1p:Status>` +
      `<saml1:Assertion xmlns:saml1="urn:oasis:names:tc:SAML:1.0:assertion" AssertionID="${id()}" IssueInstant="${issued}" Issuer="${xmlAttribute(opts.issuer)}" MajorVersion="1" MinorVersion="1">` +
      `<saml1:Conditions NotBefore="${iso(now - SKEW_MS)}" NotOnOrAfter="${iso(now + SKEW_MS)}"><saml1:AudienceRestrictionCondition><saml1:Audience>${xmlText(
        audience,
      )}</saml1:Audience></saml1:AudienceRestrictionCondition></saml1:Conditions>` +
      `<saml1:AuthenticationStatement AuthenticationInstant="${xmlAttribute(v.attributes.authenticationDate)}" AuthenticationMethod="urn:oasis:names:tc:SAML:1.0:am:password">${subject}</saml1:AuthenticationStatement>` +
      `<saml1:AttributeStatement>${subject}${attributes}</saml1:AttributeStatement>` +
      '</saml1:Assertion></saml1p:Response>',
  );
}

/**
 * Passkeys (WebAuthn): a person's enrolled passkeys, their enrolment, and the passwordless sign-in
 * of the portal login and the sign-on page. The browser's answers are the JSON shapes
 * @simplewebauthn/browser gives (RegistrationResponseJSON, AuthenticationResponseJSON), bounded here.
 */
import { Type, type Static } from 'typebox';

/** The most passkeys one person may hold. */
export const PASSKEYS_PER_PERSON = 10;

const B64URL = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '^[A-Za-z0-9_-]+$' });

/** A credential's id as the authenticator made it (WebAuthn allows up to 1023 bytes). */
const CredentialId = B64URL(1400);

/** The browser's answer to navigator.credentials.create(), as JSON. */
export const PasskeyRegistration = Type.Object({
  id: CredentialId,
  rawId: CredentialId,
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: B64URL(4096),
    attestationObject: B64URL(16384),
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 8 })),
    authenticatorData: Type.Optional(B64URL(8192)),
    publicKey: Type.Optional(B64URL(4096)),
    publicKeyAlgorithm: Type.Optional(Type.Integer()),
  }),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  clientExtensionResults: Type.Object(
    { credProps: Type.Optional(Type.Object({ rk: Type.Optional(Type.Boolean()) })) },
    { maxProperties: 16 },
  ),
});
export type PasskeyRegistration = Static<typeof PasskeyRegistration>;

/** The browser's answer to navigator.credentials.get(), as JSON. */
export const PasskeyAssertion = Type.Object({
  id: CredentialId,
  rawId: CredentialId,
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: B64URL(4096),
    authenticatorData: B64URL(8192),
    signature: B64URL(2048),
    userHandle: Type.Optional(B64URL(128)),
  }),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  clientExtensionResults: Type.Object({}, { maxProperties: 16 }),
});
export type PasskeyAssertion = Static<typeof PasskeyAssertion>;

const PasskeyName = Type.String({ minLength: 1, maxLength: 64 });

/** Enrols a passkey: the person's name for it and the browser's answer to the options. */
export const PasskeyEnrolBody = Type.Object({ name: PasskeyName, registration: PasskeyRegistration });
export type PasskeyEnrolBody = Static<typeof PasskeyEnrolBody>;

export const PasskeyRenameBody = Type.Object({ name: PasskeyName });
export type PasskeyRenameBody = Static<typeof PasskeyRenameBody>;

/** A passwordless sign-in's answer; on the sign-on page also where the sign-in continues. */
export const PasskeySignInBody = Type.Object({
  assertion: PasskeyAssertion,
  service: Type.Optional(Type.String({ maxLength: 2048 })),
  tenantCode: Type.Optional(Type.String({ maxLength: 64 })),
});
export type PasskeySignInBody = Static<typeof PasskeySignInBody>;

/** One of a person's passkeys, as their list shows it. */
export const PasskeyItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
  /** Usable without a username or password (discoverable, with user verification). */
  passwordless: Type.Boolean(),
  /** Synced by its provider (iCloud Keychain, Google Password Manager …) rather than bound to one device. */
  backedUp: Type.Boolean(),
});
export type PasskeyItem = Static<typeof PasskeyItem>;

/**
 * WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or
 * PublicKeyCredentialRequestOptionsJSON), passed to @simplewebauthn/browser as they are.
 */
export const PasskeyOptions = Type.Object({ challenge: Type.String() }, { additionalProperties: true });
export type PasskeyOptions = Static<typeof PasskeyOptions>;

/**
 * A software WebAuthn authenticator for tests, built from node:crypto: an ES256 key per credential,
 * authenticator data and client data made as a browser and an authenticator make them, attestation
 * 'none'. Its answers are the JSON @simplewebauthn/browser hands the server, so the server's
 * verification (the certified library) runs for real. Each answer can be bent (another origin, no
 * user verification, a counter of choice) to see the server refuse it.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

/** The little CBOR the authenticator speaks: integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer<ArrayBufferLike> {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    const parts: Buffer<ArrayBufferLike>[] = [head(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: ${typeof value}`);
}

const FLAGS = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 };

export interface SoftCredential {
  id: Buffer;
  key: KeyObject;
  userHandle: string;
  counter: number;
}

export interface BendOptions {
  origin?: string;
  rpId?: string;
  userVerified?: boolean;
  /** The counter to sign with (default: one more than the last). */
  counter?: number;
  /** Leave the user handle out (an authenticator may). */
  noUserHandle?: boolean;
}

export function createAuthenticator(defaults: { origin: string; rpId: string }) {
  const credentials: SoftCredential[] = [];
  const aaguid = randomBytes(16);

  function authData(rpId: string, flags: number, counter: number, attested?: Buffer) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  return {
    credentials,

    /** navigator.credentials.create(): a new discoverable credential for the options' user. */
    create(options: { challenge: string; user: { id: string } }, bend: BendOptions = {}) {
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = cbor(
        new Map<number, unknown>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
      const id = randomBytes(32);
      const credential = { id, key: privateKey, userHandle: options.user.id, counter: 0 };
      credentials.push(credential);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const flags = FLAGS.up | (bend.userVerified === false ? 0 : FLAGS.uv) | FLAGS.at;
      const data = authData(bend.rpId ?? defaults.rpId, flags, 0, Buffer.concat([aaguid, idLength, id, cose]));
      const clientData = JSON.stringify({
        type: 'webauthn.create',
        challenge: options.challenge,
        origin: bend.origin ?? defaults.origin,
        crossOrigin: false,
      });
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(Buffer.from(clientData)),
          attestationObject: b64url(
            cbor(
              new Map<string, unknown>([
                ['fmt', 'none'],
                ['attStmt', new Map()],
                ['authData', data],
              ]),
            ),
          ),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: { credProps: { rk: true } },
      };
    },

    /** navigator.credentials.get(): an assertion by `credential` (default: the last made). */
    get(options: { challenge: string }, credential = credentials.at(-1)!, bend: BendOptions = {}) {
      credential.counter = bend.counter ?? credential.counter + 1;
      const flags = FLAGS.up | (bend.userVerified === false ? 0 : FLAGS.uv);
      const data = authData(bend.rpId ?? defaults.rpId, flags, credential.counter);
      const clientData = Buffer.from(
        JSON.stringify({
          type: 'webauthn.get',
          challenge: options.challenge,
          origin: bend.origin ?? defaults.origin,
          crossOrigin: false,
        }),
      );
      const signature = sign('sha256', Buffer.concat([data, sha256(clientData)]), credential.key);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          ...(bend.noUserHandle ? {} : { userHandle: credential.userHandle }),
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },
  };
}

/**
 * A software WebAuthn authenticator for tests, built from node:crypto: an ES256 key per credential,
 * authenticator data and client data made as a browser and an authenticator make them, attestation
 * 'none'. Its answers are the JSON @simplewebauthn/browser hands the server, so the server's
 * verification (the certified library) runs for real. Each answer can be bent (another origin, no
 * user verification, a counter of choice) to see the server refuse it.
 */
import { type KeyObject } from 'node:crypto';
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
export declare function createAuthenticator(defaults: {
    origin: string;
    rpId: string;
}): {
    credentials: SoftCredential[];
    /** navigator.credentials.create(): a new discoverable credential for the options' user. */
    create(options: {
        challenge: string;
        user: {
            id: string;
        };
    }, bend?: BendOptions): {
        id: string;
        rawId: string;
        type: "public-key";
        response: {
            clientDataJSON: string;
            attestationObject: string;
            transports: string[];
        };
        authenticatorAttachment: string;
        clientExtensionResults: {
            credProps: {
                rk: boolean;
            };
        };
    };
    /** navigator.credentials.get(): an assertion by `credential` (default: the last made). */
    get(options: {
        challenge: string;
    }, credential?: SoftCredential, bend?: BendOptions): {
        id: string;
        rawId: string;
        type: "public-key";
        response: {
            userHandle?: string | undefined;
            clientDataJSON: string;
            authenticatorData: string;
            signature: string;
        };
        authenticatorAttachment: string;
        clientExtensionResults: {};
    };
};

/**
 * The authentication context class (OpenID Connect `acr`) of a sign-on session, from what it proved
 * (`sso_sessions.methods`, the `amr` values). Two ordered levels, as Keycloak maps its ACR names to
 * numeric levels of authentication: level 1 is a password alone (or a password on a remembered
 * browser), level 2 is a second factor on top of it or a passkey with user verification (`mfa`).
 * A higher level satisfies a request for a lower one (ADR 051, amendment of 2026-11-27).
 */
export const ACR_LOA_1 = 'urn:portal:loa:1';
export const ACR_LOA_2 = 'urn:portal:loa:2';

/** In order, weakest first: what discovery advertises (`acr_values_supported`). */
export const ACR_VALUES = [ACR_LOA_1, ACR_LOA_2] as const;

const levelOfAcr = (acr: string) => ACR_VALUES.indexOf(acr as (typeof ACR_VALUES)[number]) + 1;

/** The level a session's methods reach: 2 with `mfa`, else 1. */
export const levelOf = (methods: readonly string[]): 1 | 2 => (methods.includes('mfa') ? 2 : 1);

/**
 * The `acr` to assert for a session: of the values the client asked for (`acr_values`, or the
 * claims request's `acr` value/values, in its order of preference), the first one the session
 * reaches; else the session's own level. Values this server does not know are passed over.
 */
export function acrFor(methods: readonly string[], asked: readonly string[]): string {
  const level = levelOf(methods);
  const met = asked.find((a) => {
    const l = levelOfAcr(a);
    return l > 0 && l <= level;
  });
  return met ?? ACR_VALUES[level - 1]!;
}

/** The acr values a request names: its `acr_values` parameter, and its claims request's `id_token.acr`. */
export function askedAcrs(params: Record<string, unknown>): { values: string[]; essential: boolean } {
  const values: string[] = [];
  let essential = false;
  if (typeof params.acr_values === 'string') values.push(...params.acr_values.split(' ').filter(Boolean));
  if (typeof params.claims === 'string') {
    try {
      const acr = (JSON.parse(params.claims) as { id_token?: { acr?: unknown } }).id_token?.acr as
        { essential?: unknown; value?: unknown; values?: unknown } | null | undefined;
      if (acr && typeof acr === 'object') {
        const named = [acr.value, ...(Array.isArray(acr.values) ? acr.values : [])].filter(
          (v): v is string => typeof v === 'string',
        );
        // The claims request says what is essential; it comes before the voluntary acr_values.
        values.unshift(...named);
        essential = acr.essential === true && named.length > 0;
      }
    } catch {
      // The library refuses a claims parameter that is not JSON before any interaction.
    }
  }
  return { values, essential };
}

/** Whether an essential request is met: one of its values is reached by the session's level. */
export const meets = (methods: readonly string[], asked: readonly string[]) =>
  asked.some((a) => {
    const l = levelOfAcr(a);
    return l > 0 && l <= levelOf(methods);
  });

/**
 * A tenant's OpenID Connect clients, as its operators register them (the console's OIDC 客户端, the
 * CLI's `oidc-clients`). The same operator gate as every console call (`system:manage`, the
 * permission that guards the sign-on services). A confidential client's secret is 256 random bits,
 * answered once and kept only as its SHA-256 (hex); the provider compares hashes.
 */
import {
  OIDC_CLIENT_NAME_MAX,
  ResultCode,
  isRedirectUri,
  oidcClientProblem,
  type AdminOidcClient,
  type OidcClientCreated,
  type OidcClientInput,
  type OidcClientPatch,
  type OidcClientProblem,
  type OidcClientSecret,
} from '@portal/contracts';
import { AppError, errors } from '../../../platform/errors.js';
import { randomAlnum, sha256Hex } from '../../../platform/hash.js';
import { rowId, type RequestedId } from '../../../platform/ids.js';
import type { MessageKey } from '../../../platform/i18n.js';
import { acceptOptionalPersonName, acceptPersonName } from '../../../platform/names.js';
import type { Caller, OperatorGate } from '../operators.service.js';
import type { AdminOidcClientsRepository, OidcClientRow } from './oidc-clients.repository.js';

/** The sign-on server's reading of addresses and the outbound rule, given by app.ts. */
export interface ClientAddressRules {
  /** Whether an address is a plain absolute http(s) URL (the sign-on registry's reading). */
  valid(address: string): boolean;
  /** Whether the server may send requests there (platform/outbound.ts): false when the rule refuses it now. */
  reachable(address: string): boolean;
}

export interface AdminOidcClientsServiceDeps {
  repo: AdminOidcClientsRepository;
  operatorOf: OperatorGate;
  addresses: ClientAddressRules;
}

const PROBLEM_MESSAGES: Record<OidcClientProblem, MessageKey> = {
  clientCredentialsPublic: 'oidcClientCredentialsPublic',
  refreshAlone: 'oidcRefreshAlone',
  redirectRequired: 'oidcRedirectRequired',
  tooManyUris: 'oidcTooManyUris',
  openidRequired: 'oidcOpenidRequired',
  serviceAccountGrant: 'oidcServiceAccountGrant',
  serviceAccountRole: 'oidcServiceAccountRole',
};

/** A list as kept: each value once, in the order given. */
const once = <T>(values: readonly T[] | undefined): T[] => [...new Set(values ?? [])];

/** 256 random bits ([A-Za-z0-9], 43 characters), and what is kept of them. */
function newSecret(): { secret: string; secretHash: string } {
  const secret = randomAlnum(43);
  return { secret, secretHash: sha256Hex(secret) };
}

export function createAdminOidcClientsService(deps: AdminOidcClientsServiceDeps) {
  const { repo, operatorOf, addresses } = deps;

  /** The settings as they would be kept, checked as a whole; a 400 (409 for a refused back-channel address). */
  function checked(confidential: boolean, c: OidcClientRow): OidcClientRow {
    const row: OidcClientRow = {
      ...c,
      grantTypes: once(c.grantTypes),
      redirectUris: once(c.redirectUris),
      postLogoutRedirectUris: once(c.postLogoutRedirectUris),
      scopes: once(c.scopes),
      backchannelLogoutUri: c.backchannelLogoutUri?.trim() || null,
    };
    const problem = oidcClientProblem({
      confidential,
      ...row,
      serviceRoleId: row.serviceRoleId === null ? null : String(row.serviceRoleId),
    });
    if (problem) throw new AppError(ResultCode.BAD_REQUEST, PROBLEM_MESSAGES[problem], { max: 20 });
    const redirectOk = (u: string) => isRedirectUri(u) && addresses.valid(u);
    if (![...row.redirectUris, ...row.postLogoutRedirectUris].every(redirectOk))
      throw new AppError(ResultCode.BAD_REQUEST, 'oidcRedirectUriInvalid');
    const back = row.backchannelLogoutUri;
    if (back !== null) {
      if (!redirectOk(back)) throw new AppError(ResultCode.BAD_REQUEST, 'oidcBackchannelUriInvalid');
      // The server posts logout tokens there: an address it may not send to is refused now, not only when called.
      if (!addresses.reachable(back)) throw new AppError(ResultCode.CONFLICT, 'serviceAddressRefused');
    }
    return row;
  }

  const names = (name: string, nameEn: string | undefined) => ({
    name: acceptPersonName(name, {
      required: 'oidcClientNameRequired',
      max: OIDC_CLIENT_NAME_MAX,
      tooLong: 'nameTooLong',
    }),
    nameEn: acceptOptionalPersonName(nameEn, OIDC_CLIENT_NAME_MAX) ?? '',
  });

  /**
   * The role a service account acts in, as kept: one of the tenant's roles (so a client never holds
   * more than the tenant can give, and platform powers only in the platform tenant), or a 400
   * whenever one is named; kept only while the client is a service account.
   */
  async function serviceRole(tenantId: number, serviceAccount: boolean, roleId: RequestedId | null) {
    if (roleId === null || roleId === '') return null;
    const id = rowId(roleId);
    if (!(await repo.roleOfTenant(tenantId, id))) throw new AppError(ResultCode.BAD_REQUEST, 'oidcServiceRoleUnknown');
    return serviceAccount ? id : null;
  }

  async function found(tenantId: number, id: RequestedId): Promise<AdminOidcClient> {
    const client = await repo.get(tenantId, rowId(id));
    if (!client) throw errors.notFound();
    return client;
  }

  return {
    async list(caller: Caller, f: { page: number; limit: number; q?: string | undefined }) {
      const { tenantId } = await operatorOf(caller);
      return repo.list(tenantId, f);
    },

    async get(caller: Caller, id: RequestedId): Promise<AdminOidcClient> {
      const { tenantId } = await operatorOf(caller);
      return found(tenantId, id);
    },

    /** Registers a client: its id, its client_id and (confidential) its secret, which is never shown again. */
    async create(caller: Caller, input: OidcClientInput): Promise<OidcClientCreated> {
      const { tenantId } = await operatorOf(caller);
      // The role first: a role id the tenant does not have is refused whatever else the body holds.
      const serviceRoleId = await serviceRole(tenantId, input.serviceAccount ?? false, input.serviceRoleId ?? null);
      const row = checked(input.confidential, {
        ...names(input.name, input.nameEn),
        grantTypes: input.grantTypes,
        redirectUris: input.redirectUris ?? [],
        postLogoutRedirectUris: input.postLogoutRedirectUris ?? [],
        backchannelLogoutUri: input.backchannelLogoutUri ?? null,
        scopes: input.scopes,
        firstParty: input.firstParty ?? false,
        idTokenAlg: input.idTokenAlg ?? 'ES256',
        serviceAccount: input.serviceAccount ?? false,
        serviceRoleId,
      });
      const made = input.confidential ? newSecret() : null;
      const clientId = randomAlnum(24);
      const id = await repo.create(tenantId, {
        ...row,
        clientId,
        confidential: input.confidential,
        secretHash: made?.secretHash ?? null,
      });
      return { id: String(id), clientId, secret: made?.secret ?? null };
    },

    /** Changes the fields given; the rule is checked on the client as it would then be. */
    async update(caller: Caller, id: RequestedId, patch: OidcClientPatch): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      const now = await found(tenantId, id);
      const serviceAccount = patch.serviceAccount ?? now.serviceAccount;
      const serviceRoleId = await serviceRole(
        tenantId,
        serviceAccount,
        patch.serviceRoleId !== undefined ? patch.serviceRoleId : now.serviceRoleId,
      );
      const row = checked(now.confidential, {
        ...names(patch.name ?? now.name, patch.nameEn ?? now.nameEn),
        grantTypes: patch.grantTypes ?? now.grantTypes,
        redirectUris: patch.redirectUris ?? now.redirectUris,
        postLogoutRedirectUris: patch.postLogoutRedirectUris ?? now.postLogoutRedirectUris,
        backchannelLogoutUri:
          patch.backchannelLogoutUri !== undefined ? patch.backchannelLogoutUri : now.backchannelLogoutUri,
        scopes: patch.scopes ?? now.scopes,
        firstParty: patch.firstParty ?? now.firstParty,
        idTokenAlg: patch.idTokenAlg ?? now.idTokenAlg,
        serviceAccount,
        serviceRoleId,
      });
      // Narrowed (a scope taken away, consent asked from now on, the service-account mark or its
      // role changed): the grants and tokens it holds end, so that none keeps what the client may
      // no longer have.
      const narrowed =
        now.scopes.some((s) => !row.scopes.includes(s)) ||
        (now.firstParty && !row.firstParty) ||
        now.serviceAccount !== row.serviceAccount ||
        (now.serviceRoleId ?? null) !== (row.serviceRoleId === null ? null : String(row.serviceRoleId));
      if (!(await repo.update(tenantId, rowId(id), row, narrowed))) throw errors.notFound();
    },

    async setEnabled(caller: Caller, id: RequestedId, enabled: boolean): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      if (!(await repo.setEnabled(tenantId, rowId(id), enabled))) throw errors.notFound();
    },

    /** A new secret for a confidential client, shown once; the old one stops working with this change. */
    async rotateSecret(caller: Caller, id: RequestedId): Promise<OidcClientSecret> {
      const { tenantId } = await operatorOf(caller);
      const client = await found(tenantId, id);
      if (!client.confidential) throw new AppError(ResultCode.CONFLICT, 'oidcPublicNoSecret');
      const { secret, secretHash } = newSecret();
      if (!(await repo.setSecret(tenantId, rowId(id), secretHash))) throw errors.notFound();
      return { id: client.id, clientId: client.clientId, secret };
    },

    async remove(caller: Caller, id: RequestedId): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      if (!(await repo.delete(tenantId, rowId(id)))) throw errors.notFound();
    },
  };
}

export type AdminOidcClientsService = ReturnType<typeof createAdminOidcClientsService>;

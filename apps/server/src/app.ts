/**
 * Builds the Fastify application from its dependencies: platform plugins first, then the signed
 * /api scope with each module's routes, then the web app. Nothing here starts a database or listens,
 * so tests build the same app in memory and call it through inject().
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEFAULT_SECURITY_POLICY, LIMITS, ResultCode, SIGNING_HEADERS, passwordRulesOf } from '@portal/contracts';
import { AppError } from './platform/errors.js';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import { connectRelaxed, type Db } from './db/client.js';
import { scopedDb } from './db/scope.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { authCasRoutes } from './modules/auth/auth-cas.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { createAccountRepository } from './modules/account/account.repository.js';
import { createAccountService } from './modules/account/account.service.js';
import { catalogRoutes } from './modules/catalog/catalog.routes.js';
import { createCatalogRepository } from './modules/catalog/catalog.repository.js';
import { createCatalogService } from './modules/catalog/catalog.service.js';
import { provinceNames } from './modules/catalog/regions.js';
import { createCasClient } from './platform/cas-client.js';
import { createCaptchaRepository } from './modules/captcha/captcha.repository.js';
import { captchaRoutes } from './modules/captcha/captcha.routes.js';
import { createCaptchaService } from './modules/captcha/captcha.service.js';
import { createProofOfPerson } from './modules/captcha/proof-of-person.js';
import { createBehaviourCaptchaService } from './modules/captcha/behaviour-captcha.service.js';
import { createEnterprisesRepository } from './modules/enterprises/enterprises.repository.js';
import { createEnterprisesService } from './modules/enterprises/enterprises.service.js';
import { enterprisesRoutes } from './modules/enterprises/enterprises.routes.js';
import { createEventsRepository } from './modules/events/events.repository.js';
import { eventsRoutes } from './modules/events/events.routes.js';
import { createEventsService } from './modules/events/events.service.js';
import { createFilesRepository } from './modules/files/files.repository.js';
import { downloadRoutes, uploadRoutes } from './modules/files/files.routes.js';
import { createFilesService } from './modules/files/files.service.js';
import { createInvitationsRepository } from './modules/invitations/invitations.repository.js';
import { invitationsRoutes } from './modules/invitations/invitations.routes.js';
import { createInvitationsService } from './modules/invitations/invitations.service.js';
import { createExampleSystemRepository } from './modules/example-system/example-system.repository.js';
import { exampleSystemRoutes } from './modules/example-system/example-system.routes.js';
import { EXAMPLE_SYSTEM_PATH, createExampleSystemService } from './modules/example-system/example-system.service.js';
import { createOidcExampleRepository } from './modules/oidc-example/oidc-example.repository.js';
import { oidcExampleRoutes } from './modules/oidc-example/oidc-example.routes.js';
import {
  OIDC_EXAMPLE_PATH,
  createOidcExampleService,
  outboundFetch,
} from './modules/oidc-example/oidc-example.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { createMembersRepository } from './modules/members/members.repository.js';
import { membersRoutes } from './modules/members/members.routes.js';
import { createMembersService } from './modules/members/members.service.js';
import { createMenusRepository } from './modules/menus/menus.repository.js';
import { menusRoutes } from './modules/menus/menus.routes.js';
import { createNoticesRepository } from './modules/notices/notices.repository.js';
import { createDevicesRepository, ONLINE_SECONDS } from './modules/devices/devices.repository.js';
import { devicesRoutes, ingestRoutes } from './modules/devices/devices.routes.js';
import { createDevicesService } from './modules/devices/devices.service.js';
import { createOpenPagesRepository } from './modules/open-pages/open-pages.repository.js';
import { openPagesRoutes } from './modules/open-pages/open-pages.routes.js';
import { createOpenPagesService } from './modules/open-pages/open-pages.service.js';
import { createMicroAppsRepository } from './modules/micro-apps/micro-apps.repository.js';
import { microAppsRoutes } from './modules/micro-apps/micro-apps.routes.js';
import { createMicroAppsService } from './modules/micro-apps/micro-apps.service.js';
import { noticeAttachmentRoutes, noticesRoutes } from './modules/notices/notices.routes.js';
import { createParkServicesRepository } from './modules/park-services/park-services.repository.js';
import { parkServicesRoutes } from './modules/park-services/park-services.routes.js';
import { createParkServicesService } from './modules/park-services/park-services.service.js';
import { createNoticesService } from './modules/notices/notices.service.js';
import { createPagesRepository } from './modules/pages/pages.repository.js';
import { pagesRoutes } from './modules/pages/pages.routes.js';
import { createPagesService } from './modules/pages/pages.service.js';
import { createWorkbenchRepository } from './modules/workbench/workbench.repository.js';
import { createWorkbenchService } from './modules/workbench/workbench.service.js';
import { workbenchRoutes } from './modules/workbench/workbench.routes.js';
import { createOutboxProvider, createWebhookProvider } from './modules/sms/sms.providers.js';
import { createSmsRepository } from './modules/sms/sms.repository.js';
import { createFactorsRepository } from './modules/factors/factors.repository.js';
import { factorsRoutes } from './modules/factors/factors.routes.js';
import { createFactorsService } from './modules/factors/factors.service.js';
import { createSecurityPolicies } from './platform/security-policy.js';
import { smsRoutes } from './modules/sms/sms.routes.js';
import { createSmsService } from './modules/sms/sms.service.js';
import { createMenusService } from './modules/menus/menus.service.js';
import { createRegistrationRepository } from './modules/registration/registration.repository.js';
import { checkOnlyUserRoutes, registrationRoutes } from './modules/registration/registration.routes.js';
import { createRegistrationService } from './modules/registration/registration.service.js';
import { createOidcRepository } from './modules/oidc/oidc.repository.js';
import { oidcRoutes } from './modules/oidc/oidc.routes.js';
import { createOidcService, createProviderFetch, isInteractionAddress } from './modules/oidc/oidc.service.js';
import { createPasskeysRepository } from './modules/passkeys/passkeys.repository.js';
import { passkeyCasRoutes, passkeyRoutes } from './modules/passkeys/passkeys.routes.js';
import { createPasskeysService } from './modules/passkeys/passkeys.service.js';
import { createSsoRepository } from './modules/sso/sso.repository.js';
import {
  PORTAL_SERVICE,
  findService,
  parseService,
  patternsOverlap,
  resolvePattern,
} from './modules/sso/service-registry.js';
import { TGC_COOKIE, ssoApiRoutes, ssoRoutes, tgcCookieOptions } from './modules/sso/sso.routes.js';
import { SsoRefusal, createLogoutPoster, createSsoService } from './modules/sso/sso.service.js';
import {
  DEFAULT_WEB_DIST,
  DEMO_MICRO_APP_DIST,
  DEMO_SUB_APP_PATH,
  readIndexHtml,
  subAppRoutes,
  webRoutes,
} from './modules/web/web.routes.js';
import type { Config } from './platform/config.js';
import type { HousekeepingTask } from './platform/housekeeping.js';
import { createInvalidationBus } from './platform/invalidation.js';
import { clientErrorHandler, frameworkErrors, installErrorHandlers } from './platform/error-handling.js';
import { DRAINING_SERVER_OPTIONS, drainOnClose } from './platform/graceful-stop.js';
import { boundJsonBodies, requireMultipartBoundaries, textRuleValidators } from './platform/input-guard.js';
import { createPasswordDecryptor } from './platform/password-transport.js';
import { createPasswords } from './platform/passwords.js';
import { recentPasswordHashes } from './db/passwords.js';
import { createMetrics } from './platform/metrics.js';
import { createAddressRule } from './platform/addresses.js';
import { createOutbound } from './platform/outbound.js';
import { registerOpenApi } from './platform/openapi.js';
import { createPermissionGuard } from './platform/permissions.js';
import { createRateLimiter } from './platform/rate-limit.js';
import { recordRoutes } from './platform/route-table.js';
import { apiSecurityHeaders, securityHeaders } from './platform/security-headers.js';
import { ensureSecret, type Secrets } from './platform/secrets.js';
import { randomAlnum, sha256Hex } from './platform/hash.js';
import { OIDC_EXAMPLE } from './db/demo/content/services.js';
import { createNonceStore, createRecentNonces, createSignatureVerifier } from './platform/signing.js';
import { createTenants } from './platform/tenants.js';
import { createTenantSettings } from './platform/tenant-settings.js';
import { auditOperatorChanges } from './platform/operators.js';
import { bearerOf, serviceAccountSession } from './platform/service-accounts.js';
import { createOperatorsRepository } from './modules/admin/operators.repository.js';
import { createOperatorGate } from './modules/admin/operators.service.js';
import { createAdminAccessRepository } from './modules/admin/access/access.repository.js';
import { adminAccessRoutes } from './modules/admin/access/access.routes.js';
import { createAdminAccessService } from './modules/admin/access/access.service.js';
import { createAdminMenusRepository } from './modules/admin/menus/menus.repository.js';
import { adminMenusRoutes } from './modules/admin/menus/menus.routes.js';
import { createAdminMenusService } from './modules/admin/menus/menus.service.js';
import { createAdminRecordsRepository } from './modules/admin/records/records.repository.js';
import { adminRecordsRoutes } from './modules/admin/records/records.routes.js';
import { createAdminOidcClientsRepository } from './modules/admin/oidc-clients/oidc-clients.repository.js';
import { adminOidcClientsRoutes } from './modules/admin/oidc-clients/oidc-clients.routes.js';
import { createAdminOidcClientsService } from './modules/admin/oidc-clients/oidc-clients.service.js';
import { createAdminRecordsService } from './modules/admin/records/records.service.js';
import { createSecurityPolicyRepository } from './modules/admin/security-policy/security-policy.repository.js';
import { adminSecurityPolicyRoutes } from './modules/admin/security-policy/security-policy.routes.js';
import { createSecurityPolicyService } from './modules/admin/security-policy/security-policy.service.js';
import { createAdminTenantsRepository } from './modules/admin/tenants/tenants.repository.js';
import { adminTenantsRoutes } from './modules/admin/tenants/tenants.routes.js';
import { createAdminTenantsService } from './modules/admin/tenants/tenants.service.js';
import { createAdminUsersRepository } from './modules/admin/users/users.repository.js';
import { adminUsersRoutes } from './modules/admin/users/users.routes.js';
import { createAdminUsersService } from './modules/admin/users/users.service.js';
import { createSessionsRepository } from './modules/sessions/sessions.repository.js';
import { sessionsRoutes } from './modules/sessions/sessions.routes.js';
import { createSessionsService } from './modules/sessions/sessions.service.js';
import { LOGO_PURPOSE } from './modules/files/files.service.js';

/** The largest logo a tenant may upload. */
const LOGO_MAX_BYTES = 512 * 1024;

/**
 * The most single-logout requests one sign-on logout sends: every service's newest ticket first,
 * the rest counted and logged (ADR 034). Twenty covers a working day of systems entered.
 */
export const SSO_LOGOUT_CALLBACKS_MAX = 20;

/** Where the sign-on server sends single-logout requests for portal sessions. */
export const PORTAL_SLO_PATH = '/sso/logout';

export interface AppDeps {
  config: Config;
  db: Db;
  secrets: Secrets;
  /** A logger to share (main.ts); otherwise one is made from config.logLevel, or false for none. */
  logger?: FastifyBaseLogger | false;
}

// The OpenID Provider's too: a device's user code, an ID token as a logout hint, tokens a client
// puts in the address.
const SECRET_QUERY =
  /([?&](?:token|st|ticket|password|user_code|id_token_hint|logout_token|access_token|refresh_token|client_secret)=)[^&]*/gi;

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization_front', 'req.headers["x-signature"]', 'req.headers.cookie'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: req.url.replace(SECRET_QUERY, '$1[redacted]'),
        ip: req.ip,
      }),
    },
  };
}

export async function buildApp({ config, db: pool, secrets, logger }: AppDeps) {
  // Repositories share one transaction when a piece of work opens one (db/scope.ts, ADR 037).
  const db = scopedDb(pool);
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: logger === false ? false : loggerOptions(config.logLevel) }),
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    ...DRAINING_SERVER_OPTIONS,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false } },
    schemaController: { compilersFactory: { buildValidator: textRuleValidators() } },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // The API speaks JSON only; Fastify's default text/plain parser would hand routes a raw string.
  app.removeContentTypeParser('text/plain');
  boundJsonBodies(app);
  requireMultipartBoundaries(app);
  const routeTable = recordRoutes(app);
  await registerOpenApi(app, '1');
  app.decorate('routeTable', routeTable);
  const metrics = createMetrics({ process: config.metricsPort !== 0 });
  app.decorate('metrics', metrics);
  // Every answer, by its route's template (an unknown path is one label, not one per path).
  app.addHook('onResponse', (req, reply, done) => {
    metrics.request(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  installErrorHandlers(app);

  const security = securityHeaders();
  const apiSecurity = apiSecurityHeaders();
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(req.url.startsWith('/api/') ? apiSecurity : security);
    done();
  });

  app.decorateRequest('session', null);

  const bus = createInvalidationBus(db.$client, (err) => app.log.warn({ err }, 'invalidation listener lost'));
  const relaxed = connectRelaxed(db);
  for (const [name, pool] of [
    ['portal_db_pool_connections', db.$client],
    ['portal_db_relaxed_pool_connections', relaxed],
  ] as const) {
    metrics.gauge(name, 'Database pool connections, by state (total, idle, waiting for one)', () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }));
  }
  const nonces = createNonceStore(relaxed, { warn: (message, err) => app.log.warn({ err }, message) });
  app.addHook('onClose', async () => {
    await bus.close();
    // The nonces of the last reads are written in the background: they must be in before the pool goes.
    await nonces.drain();
    await relaxed.end();
  });
  const guard = createPermissionGuard(db);
  // Sensitive operator actions need a factor proven lately (ADR 051); factors is made below.
  const operatorOf = createOperatorGate({
    repo: createOperatorsRepository(db),
    guard,
    stepUpFresh: (session) => factors.fresh(session),
  });
  auditOperatorChanges(app, db);
  const runtime = { ...config.runtime, signSecret: secrets.signSecret, uploadMaxBytes: config.uploadMaxBytes };
  const tenantSettings = createTenantSettings(db, runtime, bus);
  // Each tenant's sign-in policy: the one way to read it (factors, step-up, passwords, login history; ADR 053).
  const securityPolicies = createSecurityPolicies(db, bus);
  const noticesRepo = createNoticesRepository(db);
  const events = createEventsService({
    repo: createEventsRepository(db),
    bus,
    unread: (tenantId, userIds) => noticesRepo.unreadMany(tenantId, userIds),
    // The auth module's own rule of a live session; only called once the app is built.
    liveSessions: (ids) => auth.liveSessions(ids),
    onError: (err) => app.log.warn({ err }, 'live stream not told'),
  });
  metrics.gauge('portal_event_streams_open', 'Live event streams open on this instance', () => events.openCount());
  // Live streams never go idle: they end first when the server stops, then the connections drain.
  app.addHook('preClose', async () => events.endAll());
  drainOnClose(app);

  // Every request the server sends to another server goes through this client (ADR 034).
  const outbound = createOutbound({ rule: createAddressRule(config.outbound.allowedCidrs), metrics });
  app.addHook('onClose', async () => outbound.close());
  const limiter = createRateLimiter(relaxed);
  // The one rule for the tenant a request names, at every entry point (ADR 016).
  const tenants = createTenants(db, config.runtime.defaultTenantCode);
  const captchaRepo = createCaptchaRepository(relaxed);
  const captcha = createCaptchaService({
    repo: captchaRepo,
    metrics,
    limiter,
    testMode: config.testCaptcha,
    perClientPerMinute: config.captchaPerClientPerMinute,
  });
  const behaviour = createBehaviourCaptchaService({
    repo: captchaRepo,
    metrics,
    limiter,
    settings: { ...config.behaviourCaptcha, testMode: config.testCaptcha },
  });
  // The configured kind is the only one accepted: with the slider on, an image answer is refused.
  const proofOfPerson = createProofOfPerson(captcha, behaviour);
  // The portal's own addresses as a service of the sign-on server.
  const portal = {
    base: `${config.publicUrl}${config.runtime.publicpath}`,
    slo: `${config.publicUrl}${PORTAL_SLO_PATH}`,
    server: config.publicUrl,
  };
  const casBase = config.ssoUrl || config.publicUrl;
  const decryptor = createPasswordDecryptor(secrets.rsaPrivateKeyPem);
  // Every new password, whoever sets it: the tenant's rules, one hash (ADR 038, ADR 053).
  const passwords = createPasswords({
    decryptor,
    rulesOf: async (tenantId) =>
      passwordRulesOf(tenantId === null ? DEFAULT_SECURITY_POLICY : await securityPolicies.of(tenantId)),
    recentHashes: (userId, n) => recentPasswordHashes(db, userId, n),
  });
  // Second factors (ADR 051): the factor step of every sign-in, on the login's lockout.
  const factors = createFactorsService({
    repo: createFactorsRepository(db),
    policies: securityPolicies,
    key: secrets.factorKey,
    // The login's lockout (ADR 003): every factor check reserves an attempt on it first.
    lockout: { reserve: (userId) => auth.reserveAttempt(userId), clear: (userId) => auth.clearAttempts(userId) },
    confirmPassword: (userId, cipher, ip) => auth.confirmPassword(userId, cipher, ip),
    // Made below; called only once the app is built.
    passkeys: {
      options: (tenantId, userId) => passkeyFactor.options(tenantId, userId),
      verify: (tenantId, userId, state, response) => passkeyFactor.verify(tenantId, userId, state, response),
    },
    // SMS codes as a factor: the sms module's own send and check (its limits, lifetime, sender). Made below.
    sms: {
      send: (tenantId, phone, ip) => sms.sendCode(tenantId, phone, LIMITS.smsTypeFactor, ip),
      check: (tenantId, phone, code) => sms.checkCode(tenantId, phone, LIMITS.smsTypeFactor, code),
      resendSeconds: config.sms.resendSeconds,
    },
    recordLoginEvent: (e) => sessions.recordLoginEvent(e),
    factorChanged: (tenantId, userId, change, kind) => sessions.factorChanged(tenantId, userId, change, kind),
  });
  const auth = createAuthService({
    repo: createAuthRepository(db, relaxed),
    metrics,
    decryptor,
    verifyCaptcha: proofOfPerson.login,
    limiter,
    bus,
    jwtKey: secrets.jwtKey,
    sessionTtlHours: config.sessionTtlHours,
    loginPerIpPerMinute: config.loginPerIpPerMinute,
    sessionCacheMs: config.cacheTtlMs,
    validateTicket: createCasClient(config.ssoUrl, tenants.defaultCode, outbound),
    isPortalService: (service) => findService(service, [PORTAL_SERVICE], portal) !== null,
    // The sessions module is made below; these are called only once the app is built.
    recordLoginEvent: (e) => sessions.recordLoginEvent(e),
    ssoSessionOfTicket: (ticket) => sso.sessionOfTicket(ticket),
    seen: (id) => sessions.seen(id),
    factorGate: (p) => factors.gate(p),
  });
  // The sign-on server (CAS 3.0): its protocol routes are unsigned (below), its portal API signed.

  const sso = createSsoService({
    repo: createSsoRepository(db, relaxed),
    settings: {
      sessionMaxSeconds: config.sso.sessionMaxHours * 3600,
      sessionIdleSeconds: config.sso.sessionIdleMinutes * 60,
      ticketTtlSeconds: config.sso.ticketTtlSeconds,
      portal,
      logoutTimeoutMs: 3000,
      logoutCallbacksMax: SSO_LOGOUT_CALLBACKS_MAX,
      casBase,
    },
    tenants,
    verifyCredentials: (c) => auth.verifyCredentials(c),
    postLogout: createLogoutPoster(outbound, (err, url) => app.log.warn({ err, url }, 'single logout request failed')),
    logoutsDropped: (count, sessionId) => {
      outbound.dropped('sso_logout', count);
      app.log.warn({ count, sessionId }, 'single logout requests over the cap not sent');
    },
    isProviderReturn: (service, tenantCode) => isInteractionAddress(service, config.publicUrl, tenantCode),
    // The OpenID clients hear of a logout too (oidc is made just below; called only after start).
    sessionEnded: (id) => oidc.endSsoSession(id),
  });
  // The OpenID Provider, one per tenant, on the same sign-on session (ADR 048).
  const oidc = createOidcService({
    repo: createOidcRepository(db),
    bus,
    settings: {
      publicUrl: config.publicUrl,
      cookieKeys: [secrets.oidcCookieKey],
      secureCookies: config.publicUrl.startsWith('https:'),
      ssoIdleSeconds: config.sso.sessionIdleMinutes * 60,
      keyRotationDays: config.oidc.keyRotationDays,
    },
    fetch: createProviderFetch(outbound),
    onError: (err, what) => app.log.warn({ err }, what),
    endSso: (id) => sso.endSessionById(id),
    recordLoginEvent: (e) => sessions.recordLoginEvent(e),
  });
  app.decorate('oidc', oidc);
  // Passkeys (ADR 055): the relying party is this server's public address. `passkeyFactor` is the
  // factor step's seam (PasskeyFactor): options and checks for a person's own passkeys.
  const publicUrl = new URL(config.publicUrl);
  const passkeys = createPasskeysService({
    repo: createPasskeysRepository(db),
    rp: { id: publicUrl.hostname, origin: publicUrl.origin, name: publicUrl.hostname },
    limiter,
    perIpPerMinute: config.loginPerIpPerMinute,
    reserveAttempt: (userId) => auth.reserveAttempt(userId),
    allowed: async (tenantId) => (await securityPolicies.of(tenantId)).allowedFactors.includes('webauthn'),
    tenantIdOf: (code) => tenants.idOf(code),
    openPortal: (who, client) =>
      auth.openSessionFor(who.userId, client, { action: 'login.passkey', factorProven: true }),
    succeeded: (userId, ip) => auth.confirmSignIn(userId, ip, 'sso.login.passkey'),
    passwordChangeRefused: (tenantId, userId, ip) => auth.refusePendingPasswordChange(tenantId, userId, ip),
    stepUpFresh: (session) => factors.fresh(session),
    recordLoginEvent: (e) => sessions.recordLoginEvent(e),
  });
  const passkeyFactor = passkeys.factor;
  app.decorate('passkeyFactor', passkeyFactor);
  const smsRepo = createSmsRepository(db);
  const { webhookUrl, webhookSecret } = config.sms;
  const sms = createSmsService({
    repo: smsRepo,
    metrics,
    provider:
      config.sms.provider === 'webhook' && webhookUrl && webhookSecret
        ? createWebhookProvider({ url: webhookUrl, secret: webhookSecret, timeoutMs: 5_000, outbound })
        : createOutboxProvider(smsRepo, app.log),
    key: secrets.smsKey,
    settings: config.sms,
    signature: config.sms.signature,
  });
  const { phonePattern } = config.runtime;
  const catalog = createCatalogService({ repo: createCatalogRepository(db, { bus }) });
  const registration = createRegistrationService({
    repo: createRegistrationRepository(db),
    passwords,
    limiter,
    // The tenant's own switches (ADR 031), else the installation's.
    smsRequired: async (tenantId) => {
      const c = await tenantSettings.configOfId(tenantId);
      return c.notsms && !c.registerWithoutSms;
    },
    checkSmsCode: (tenantId, phone, code) => sms.checkCode(tenantId, phone, LIMITS.smsTypeRegistration, code),
    verifyHuman: proofOfPerson.human,
    isIndustryLeaf: (code) => catalog.isIndustryLeaf(code),
    isRegion: async (code) => catalog.isRegion(code),
    phonePattern,
    tenants,
  });
  const account = createAccountService({
    repo: createAccountRepository(db),
    passwords,
    limiter,
    bus,
    sendCode: (tenantId, phone, ip) => sms.sendCode(tenantId, phone, LIMITS.smsTypePasswordReset, ip),
    checkCode: (tenantId, phone, code) => sms.checkCode(tenantId, phone, LIMITS.smsTypePasswordReset, code),
    sendProofCode: (tenantId, phone, ip) => sms.sendCode(tenantId, phone, LIMITS.smsTypeMobileProof, ip),
    checkProofCode: (tenantId, phone, code) => sms.checkCode(tenantId, phone, LIMITS.smsTypeMobileProof, code),
    verifyHuman: proofOfPerson.human,
    // The change with the old password is how a user whose password someone else set gets their own.
    verifyCredentials: (input) => auth.verifyCredentials(input, { forPasswordChange: true }),
    confirmPassword: (userId, cipher, ip) => auth.confirmPassword(userId, cipher, ip),
    later: (work) =>
      setImmediate(() => void work().catch((err: unknown) => app.log.warn({ err }, 'password reset code not sent'))),
    phonePattern,
    tenants,
  });
  const files = createFilesService({
    repo: createFilesRepository(db),
    dir: config.filesDir,
    key: secrets.downloadKey,
    maxBytes: config.uploadMaxBytes,
    limits: config.uploads,
    limiter,
    metrics,
  });
  const housekeeping: HousekeepingTask[] = [
    { name: 'unused uploads', everyMs: 10 * 60_000, run: () => files.removeUnused() },
    { name: 'orphaned files', everyMs: 60 * 60_000, run: () => files.removeOrphans() },
    { name: 'OpenID Provider signing keys', everyMs: 60 * 60_000, run: () => oidc.rotateKeys() },
    { name: 'OpenID logouts of ended sign-on sessions', everyMs: 60_000, run: () => oidc.sweepEnded() },
    { name: 'unanswered passkey challenges', everyMs: 10 * 60_000, run: () => passkeys.removeExpiredChallenges() },
  ];
  app.decorate('housekeeping', housekeeping);
  const notices = createNoticesService({
    repo: noticesRepo,
    guard,
    link: (ref) => files.link(ref),
    ownFiles: (owner, purpose, refs) => files.own(owner, purpose, refs),
    storeAttachment: async (owner, upload, length) => (await files.store(owner, 'notice', upload, length)).addr,
    announce: (userIds) => events.announce(userIds),
    limiter,
  });
  // My sessions, online users, the login history (ADR 052).
  const sessions = createSessionsService({
    repo: createSessionsRepository(db, relaxed, { ssoIdleSeconds: config.sso.sessionIdleMinutes * 60 }),
    bus,
    operatorOf,
    policyOf: (tenantId) => securityPolicies.of(tenantId),
    endSso: (id) => sso.endSessionById(id),
    tell: (tenantId, userId, text) => notices.tell(tenantId, userId, text),
    later: (work) =>
      setImmediate(() => void work().catch((err: unknown) => app.log.warn({ err }, 'after-answer work failed'))),
    onError: (err, what) => app.log.warn({ err }, what),
  });
  housekeeping.push({
    name: 'login history past its retention',
    everyMs: 60 * 60_000,
    run: () => sessions.pruneHistory(),
  });
  const microApps = createMicroAppsService({ repo: createMicroAppsRepository(db), guard, bus });
  const devices = createDevicesService({
    repo: createDevicesRepository(db),
    guard,
    limiter,
    tenantOf: (code) => tenants.idOf(code),
  });
  const recentNonces = createRecentNonces();
  const verifySignature = createSignatureVerifier(nonces, secrets.signSecret, Date.now, recentNonces);
  // A read is refused at once only when this instance saw its nonce (ADR 013): a restarted
  // instance starts out knowing what was taken before it stopped, so a replay after a restart is too.
  app.addHook('onReady', async () => {
    for (const nonce of (await nonces.seenLately(recentNonces.perGeneration)).reverse())
      recentNonces.add(nonce, Date.now());
  });

  app.decorate('authenticate', async (req) => {
    const raw = req.headers[SIGNING_HEADERS.token];
    // No portal session token but a Bearer one: a service account's (ADR 056), read by the provider.
    const bearer = raw === undefined ? bearerOf(req) : null;
    if (bearer !== null) {
      req.session = await serviceAccountSession(req, bearer, (token) => oidc.serviceAccount(token));
      return;
    }
    req.session = await auth.authenticate(Array.isArray(raw) ? raw[0] : raw, {
      pendingPasswordChange: req.routeOptions.config.pendingPasswordChange === true,
    });
  });

  await app.register(healthRoutes, { db });

  // Every /api call is signed (docs/api.md#every-call); downloads under /api/resources and the devices'
  // ingest API under /api/ingest are not.
  await app.register(async (api) => {
    api.addHook('preValidation', async (req) => verifySignature(req));
    await api.register(captchaRoutes, { captcha, behaviour });
    await api.register(authRoutes, {
      auth,
      publicKey: { publicKey: secrets.rsaPublicKeyPem, keyId: secrets.rsaKeyId },
      tenants,
      captchaKind: () => behaviour.kind(),
    });
    await api.register(membersRoutes, {
      members: createMembersService({ repo: createMembersRepository(db), bus, cacheMs: config.cacheTtlMs }),
    });
    await api.register(enterprisesRoutes, {
      enterprises: createEnterprisesService({
        repo: createEnterprisesRepository(db),
        regionPath: (code) => catalog.regionPath(code),
      }),
    });
    await api.register(invitationsRoutes, {
      invitations: createInvitationsService({
        repo: createInvitationsRepository(db),
        guard,
        limiter,
        phonePattern,
      }),
    });
    await api.register(menusRoutes, {
      menus: createMenusService({ repo: createMenusRepository(db), portal: portal.base, server: portal.server }),
    });
    await api.register(pagesRoutes, {
      pages: createPagesService({
        repo: createPagesRepository(db),
        guard,
        frameOrigins: (tenantId) => microApps.frameOrigins(tenantId),
        portalOrigin: new URL(config.publicUrl).origin,
      }),
    });
    await api.register(workbenchRoutes, { workbench: createWorkbenchService({ repo: createWorkbenchRepository(db) }) });
    await api.register(smsRoutes, {
      sms,
      verifyHuman: proofOfPerson.human,
      tenants,
      phonePattern,
    });
    await api.register(registrationRoutes, { registration });
    await api.register(catalogRoutes, { catalog });
    await api.register(accountRoutes, { account });
    await api.register(passkeyRoutes, { passkeys });
    await api.register(ssoApiRoutes, { sso });
    await api.register(factorsRoutes, {
      factors,
      openPortal: (userId, client, factor) => auth.loginAfterFactor(userId, client, factor),
      secureCookie: config.publicUrl.startsWith('https:'),
    });
    await api.register(uploadRoutes, { files });
    await api.register(noticesRoutes, { notices });
    await api.register(noticeAttachmentRoutes, { notices, maxBytes: files.maxBytes });
    await api.register(eventsRoutes, { events });
    await api.register(microAppsRoutes, { microApps });
    await api.register(devicesRoutes, { devices });
    await api.register(openPagesRoutes, {
      openPages: createOpenPagesService({
        repo: createOpenPagesRepository(db, { onlineSeconds: ONLINE_SECONDS }),
        sectionsOf: (codes, lang) => catalog.sectionsOf(codes, lang),
        provinceNames,
        tenantOf: (code) => tenants.idOf(code),
      }),
    });
    await api.register(adminUsersRoutes, {
      users: createAdminUsersService({
        repo: createAdminUsersRepository(db),
        operatorOf,
        passwords,
        bus,
        phonePattern,
        policies: securityPolicies,
      }),
    });
    await api.register(adminTenantsRoutes, {
      tenants: createAdminTenantsService({
        repo: createAdminTenantsRepository(db),
        operatorOf,
        settings: tenantSettings,
        passwords,
        bus,
        storeLogo: async (owner, upload) =>
          `/api/resources/logos/${(await files.store(owner, LOGO_PURPOSE, upload, LOGO_MAX_BYTES)).id}`,
      }),
      logoMaxBytes: LOGO_MAX_BYTES,
    });
    await api.register(adminSecurityPolicyRoutes, {
      securityPolicy: createSecurityPolicyService({
        repo: createSecurityPolicyRepository(db, securityPolicies),
        operatorOf,
      }),
    });
    await api.register(adminAccessRoutes, {
      access: createAdminAccessService({ repo: createAdminAccessRepository(db), operatorOf, bus }),
    });
    await api.register(adminMenusRoutes, {
      menus: createAdminMenusService({ repo: createAdminMenusRepository(db), operatorOf, bus }),
    });
    await api.register(adminRecordsRoutes, {
      records: createAdminRecordsService({
        repo: createAdminRecordsRepository(db),
        operatorOf,
        // The members hear of the review by a notice, written in the review's own transaction.
        reviewDecided: (tenantId, id, estatus, reason) => notices.reviewDecided(tenantId, id, estatus, reason),
        services: {
          // A `*` would read as a wildcard to a person; the registry matches by path prefix (`/` at the end).
          valid: (address) => parseService(address) !== null && !address.includes('*'),
          reachable: (address) => {
            const url = parseService(address);
            return !url || outbound.judge(url, 'sso_registration')?.ok !== false;
          },
          clashes: (pattern, others) => others.some((other) => patternsOverlap(pattern, resolvePattern(other, portal))),
        },
        catalog: { industryNames: catalog.industryNames, regionNames: catalog.regionNames },
      }),
    });
    await api.register(adminOidcClientsRoutes, {
      clients: createAdminOidcClientsService({
        repo: createAdminOidcClientsRepository(db),
        operatorOf,
        addresses: {
          valid: (address) => parseService(address) !== null,
          // Logout tokens are posted there through the one outbound client, under the same rule.
          reachable: (address) => {
            const url = parseService(address);
            return !url || outbound.judge(url, 'sso_registration')?.ok !== false;
          },
        },
      }),
    });
    await api.register(sessionsRoutes, { sessions });
    await api.register(parkServicesRoutes, {
      park: createParkServicesService({ repo: createParkServicesRepository(db), guard, limiter }),
    });
  });
  await app.register(downloadRoutes, { files });
  // Devices sign with their own credential, not the browser's secret.
  await app.register(ingestRoutes, { devices });

  // The sign-on server's protocol and the portal's single-logout receiver: unsigned, as CAS is.
  const webDist = config.webDist ?? DEFAULT_WEB_DIST;
  const indexHtml = readIndexHtml(webDist, config.runtime.publicpath);
  await app.register(ssoRoutes, {
    sso,
    page: () => indexHtml,
    secureCookie: config.publicUrl.startsWith('https:'),
    sessionMaxSeconds: config.sso.sessionMaxHours * 3600,
    origin: new URL(config.publicUrl).origin,
    factorStep: {
      answer: async (a, client) => {
        const done = await factors.answer(a, client, 'cas');
        if (done.purpose === 'cas') await auth.factorAnswered(done.userId, client.ip);
        return done;
      },
      later: (challenge, client) => factors.later(challenge, client),
      enrol: (challenge, name) => factors.enrolDuringSignIn(challenge, name),
      passkeyOptions: (challenge) => factors.passkeyOptions(challenge),
      sms: (challenge, ip) => factors.smsForChallenge(challenge, ip),
      confirmEnrol: (challenge, code, client) => factors.confirmDuringSignIn(challenge, code, client, 'cas'),
    },
  });
  await app.register(passkeyCasRoutes, {
    passkeys,
    // The sign-on server's own sign-in, with the passkey as the proof.
    signOn: async (where, prove) => {
      try {
        return await sso.signInWith(where, prove);
      } catch (err) {
        if (!(err instanceof SsoRefusal)) throw err;
        throw new AppError(
          ResultCode.BAD_REQUEST,
          err.reason === 'unknownTenant' ? 'tenantUnknown' : 'ssoUnknownService',
        );
      }
    },
    ssoCookie: {
      name: TGC_COOKIE,
      options: tgcCookieOptions(config.publicUrl.startsWith('https:'), config.sso.sessionMaxHours * 3600),
    },
    origin: new URL(config.publicUrl).origin,
  });
  await app.register(oidcRoutes, { oidc, origin: new URL(config.publicUrl).origin, ssoCookie: TGC_COOKIE, limiter });
  await app.register(authCasRoutes, { auth, path: PORTAL_SLO_PATH });
  await app.register(checkOnlyUserRoutes, { registration });
  // The demo's example external system: a CAS client of the sign-on server, entered from the portal.
  if (config.seedDemo) {
    const service = `${config.publicUrl}${EXAMPLE_SYSTEM_PATH}`;
    await app.register(exampleSystemRoutes, {
      system: createExampleSystemService({
        repo: createExampleSystemRepository(db),
        validateTicket: createCasClient(casBase, tenants.defaultCode, outbound),
        service,
        sessionTtlSeconds: 8 * 3600,
      }),
      service,
      casBase,
      secureCookie: config.publicUrl.startsWith('https:'),
    });
  }

  // The demo's second example system: a client of the demo tenant's OpenID Provider, entered from the menu.
  if (config.seedDemo) {
    const repo = createOidcExampleRepository(db);
    const at = `${config.publicUrl}${OIDC_EXAMPLE_PATH}`;
    const clientSecret = await ensureSecret(db, OIDC_EXAMPLE.secretName, () => randomAlnum(43));
    // The seed wrote its addresses under {SERVER}: the provider compares them exactly, so they are this server's.
    await repo.pointClient({
      clientId: OIDC_EXAMPLE.clientId,
      redirectUri: `${at}callback`,
      postLogoutRedirectUri: at,
      backchannelLogoutUri: `${at}backchannel-logout`,
      secretHash: sha256Hex(clientSecret),
    });
    await app.register(oidcExampleRoutes, {
      system: createOidcExampleService({
        repo,
        issuer: `${config.publicUrl}/oidc/${OIDC_EXAMPLE.tenantCode}`,
        clientId: OIDC_EXAMPLE.clientId,
        clientSecret,
        redirectUri: `${at}callback`,
        postLogoutRedirectUri: at,
        fetch: outboundFetch(outbound),
        sessionTtlSeconds: 8 * 3600,
        scope: OIDC_EXAMPLE.scopes.join(' '),
      }),
      secureCookie: config.publicUrl.startsWith('https:'),
    });
  }

  if (config.seedDemo) await app.register(subAppRoutes, { root: DEMO_MICRO_APP_DIST, path: DEMO_SUB_APP_PATH });
  await app.register(webRoutes, {
    webDist,
    // The page's switches, with the tenant's password rules (never its factor keys, ADR 053).
    configOf: async (code) => {
      const [config, policy] = await Promise.all([tenantSettings.configOf(code), securityPolicies.ofCode(code)]);
      return { ...config, passwordRules: passwordRulesOf(policy) };
    },
    publicpath: runtime.publicpath,
    tenants,
    originsOf: (code) => microApps.originsOf(code),
  });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

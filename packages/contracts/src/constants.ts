/** Business constants and limits of docs/product/limits.md, in one place for server and web. */
export const LIMITS = {
  smsCountdownSeconds: 60,
  smsTypeRegistration: 2,
  smsTypePasswordReset: 3,
  /** A signed-in user proving their own mobile number (验证手机号), which enterprise invitations need. */
  smsTypeMobileProof: 4,
  /** A second factor: a code sent to the person's proven mobile during a sign-in or a step-up. */
  smsTypeFactor: 5,
  /** Codes one pending sign-in may have sent (beside the SMS limits per number and address). */
  smsFactorSendsPerChallenge: 3,
  loadingMessageSeconds: 3,
  redirectAfterRegisterSeconds: 3,
  userInfoTtlMs: 6048e5,
  selectedAppTtlMs: 864e5,
  replyMinLength: 2,
  replyMaxLength: 255,
  passwordMinLength: 8,
  tabScrollStepPx: 100,
  drawerWidth: 700,
  drawerFullWidthBelowPx: 500,
  noticeBellCount: 3,
  enterprisePageSize: 10,
  enterprisePageSizes: [5, 10, 15, 20],
  forcedLogoutNoticeSeconds: 4,
  loginErrorSeconds: 5,
  chunkLoadTimeoutMs: 120_000,
  captcha: {
    sliderSuccessMs: 1000,
    sliderFailureResetMs: 1000,
    clickCount: 3,
    clickCloseMs: 1500,
    clickRetryMs: 700,
    frameWidth: 310,
    frameHeight: 155,
    sliderY: 5,
    registerFrameWidth: 400,
    registerFrameHeight: 200,
  },
  /** Image captcha (login, registration): lifetime of one challenge. */
  imageCaptchaTtlSeconds: 120,
  /** Behavioural captcha: a token allows one check within this time; a pass is good for one use. */
  behaviourCaptchaTtlSeconds: 120,
  captchaVerificationTtlSeconds: 180,
  /** Signed requests: allowed clock skew and nonce memory. */
  signatureWindowSeconds: 300,
} as const;

/** Query parameters kept on every navigation (docs/product/screens.md#kept-parameters). */
export const KEPT_QUERY_PARAMS = [
  'tc',
  'benchCode',
  'partBench',
  'appCode',
  'roleCode',
  'tenantCode',
  'iframe',
  'service',
] as const;

/** Routes open without a session (docs/product/screens.md#open-routes). */
export const OPEN_ROUTES = [
  '/login',
  '/user/login',
  '/user/register',
  '/user/register-result',
  '/user/alteration',
  '/user/dashboard',
  '/workscreen',
  '/deviceManage/devices',
  '/deviceManage/alerts',
  '/404',
] as const;

/**
 * The cookie that tells the server which tenant a document is for when its address names none
 * (ADR 025): the content security policy lists that tenant's registered origins. The browser
 * writes it whenever it remembers a tenant; it is no credential.
 */
export const TENANT_COOKIE = 'portal_tenant';

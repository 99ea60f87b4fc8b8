/**
 * The commands of `npm run admin` (ADR 031): login/logout, the generic get/create/update/delete of
 * the operators' API, and the shortcuts kcadm users know (set-password, add-roles, …).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  OPERATOR_PERMISSION,
  PORTAL_ADMIN_SCOPE,
  normalizeUsername,
  type AdminEnterprise,
  type AdminRole,
  type AdminUser,
  type MenuData,
  type MenuExport,
  type Paged,
  type StoredNameIssues,
} from '@portal/contracts';
import { PortalApi, normalizePublicPath, normalizeServer, type Query } from './api.js';
import {
  CliError,
  EXIT,
  assignments,
  fieldList,
  flag,
  list,
  queryPairs,
  required,
  str,
  usageError,
  type Values,
} from './args.js';
import { expired, readSession, tokenExpiry, writeSession, type SavedSession } from './config.js';
import { formatOf, render } from './format.js';
import { checkNames } from './names.js';
import type { PromptInput, Prompter } from './prompt.js';
import {
  PASSWORD_FIELDS,
  RESOURCES,
  apiPath,
  createMethod,
  deleteMethod,
  resolveTarget,
  updateMethod,
  type Target,
} from './routes.js';

export interface Writer {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: Writer;
  stderr: Writer;
  stdin: PromptInput;
  env: Record<string, string | undefined>;
  /** Where relative file names are read from (npm's INIT_CWD: where `npm run` was typed). */
  cwd: string;
  /** The session file when --config does not name one. */
  configPath?: string | undefined;
  fetch?: typeof fetch;
}

export interface Ctx {
  io: CliIo;
  values: Values;
  positionals: string[];
  /** The session file. */
  file: string;
  prompter: Prompter;
}

const LOGIN_HINT = 'run "npm run admin -- login --server URL --tenant CODE --user NAME" first';

function langOf(values: Values, saved?: SavedSession['lang']): SavedSession['lang'] {
  const lang = str(values, 'lang');
  if (lang === undefined) return saved;
  if (lang === 'zh' || lang === 'en') return lang;
  throw usageError(`--lang is zh or en, not '${lang}'`);
}

function noExtraPositionals(ctx: Ctx, expected: number): void {
  if (ctx.positionals.length > expected) throw usageError(`unexpected argument '${ctx.positionals[expected]}'`);
}

/** A JSON object from a file (`-` = stdin), or a usage error saying what is wrong with it. */
async function readJsonFile(ctx: Ctx, name: string): Promise<unknown> {
  let text: string;
  try {
    text = name === '-' ? await readAll(ctx.io.stdin) : await readFile(resolve(ctx.io.cwd, name), 'utf8');
  } catch (err) {
    throw usageError(`cannot read ${name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw usageError(`${name} is not JSON: ${(err as Error).message}`);
  }
}

/** Everything `input` gives until it ends (a `-` file: stdin). */
export function readAll(input: PromptInput): Promise<string> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    const onData = (c: Buffer | string) => chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
    const onEnd = () => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      done(Buffer.concat(chunks).toString('utf8'));
    };
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The body of create/update: `-f`'s object, with `-s` assignments over it. */
async function bodyOf(ctx: Ctx): Promise<Record<string, unknown>> {
  const file = str(ctx.values, 'file');
  let base: Record<string, unknown> = {};
  if (file !== undefined) {
    const value = await readJsonFile(ctx, file);
    if (!isObject(value)) throw usageError(`${file} must hold a JSON object`);
    base = value;
  }
  return assignments(list(ctx.values, 'set'), base);
}

/** Passwords in the body are given in clear and travel RSA-encrypted (docs/api.md). */
async function encryptPasswords(api: PortalApi, body: Record<string, unknown>): Promise<void> {
  let encrypt: ((p: string) => string) | undefined;
  for (const path of PASSWORD_FIELDS) {
    const parent = path.slice(0, -1).reduce<unknown>((node, k) => (isObject(node) ? node[k] : undefined), body);
    const key = path[path.length - 1]!;
    if (isObject(parent) && typeof parent[key] === 'string') {
      encrypt ??= await api.encryptor();
      parent[key] = encrypt(parent[key]);
    }
  }
}

/**
 * Runs `work` with the saved session's API; a secret the server changed meanwhile is saved. A
 * 40303 of a session that never switched role says what to do.
 */
async function withSession<T>(ctx: Ctx, work: (api: PortalApi, session: SavedSession) => Promise<T>): Promise<T> {
  const session = await readSession(ctx.file);
  if (!session?.token) throw new CliError(`Not logged in: ${LOGIN_HINT}`, EXIT.SESSION);
  if (expired(session)) throw new CliError(`Session expired at ${session.expiresAt}: log in again`, EXIT.SESSION);
  const api = new PortalApi(
    {
      server: session.server,
      publicPath: session.publicPath,
      tenant: session.tenant,
      signSecret: session.signSecret,
      token: session.token,
      bearer: session.clientId !== undefined,
      lang: langOf(ctx.values, session.lang),
      actOn: str(ctx.values, 'tenant'),
    },
    ctx.io.fetch,
  );
  try {
    return await work(api, session);
  } catch (err) {
    if (
      err instanceof CliError &&
      err.exitCode === EXIT.REFUSED &&
      /^Error 40303\b/.test(err.message) &&
      !session.role &&
      !session.clientId
    ) {
      throw new CliError(
        `${err.message} (the operators' API needs a role holding ${OPERATOR_PERMISSION}: log in with --role)`,
        EXIT.REFUSED,
      );
    }
    throw err;
  } finally {
    if (api.conn.signSecret !== session.signSecret) {
      await writeSession(ctx.file, { ...session, signSecret: api.conn.signSecret });
    }
  }
}

// ---- login / logout ---------------------------------------------------------------------------------

interface FrontRole {
  id: string;
  title: string;
}

async function ask(ctx: Ctx, question: string, hidden = false): Promise<string> {
  const answer = await ctx.prompter.ask(question, { hidden });
  if (answer === null || answer.trim() === '') throw usageError(`no answer to "${question.trim()}"`);
  return hidden ? answer : answer.trim();
}

async function switchTo(api: PortalApi, roleId: string): Promise<void> {
  api.conn.token = await api.request<string>('POST', '/api/front/member/switchContext', { body: { roleId } });
}

/**
 * Switches the new session to the role `wanted` names: an id or title of getUserRolesNew, else a
 * code. The front API names roles by id and title only; codes are the operators' API's, so for a
 * code the session first acts in a role holding system:manage (found through each role's
 * permission codes) and looks the code up there.
 */
async function switchRole(api: PortalApi, wanted: string): Promise<FrontRole> {
  const roles = await api.request<FrontRole[]>('GET', '/api/front/member/getUserRolesNew');
  const lower = wanted.toLowerCase();
  let role = roles.find((r) => r.id === wanted) ?? roles.find((r) => r.title.toLowerCase() === lower);
  if (!role) {
    let operatorRole: FrontRole | undefined;
    for (const r of roles) {
      const menu = await api.request<MenuData>('GET', '/api/front/member/front/allPermissionV2', {
        query: [['roleId', r.id]],
      });
      if (menu.auth.some((a) => a.action === OPERATOR_PERMISSION)) {
        operatorRole = r;
        break;
      }
    }
    if (operatorRole) {
      await switchTo(api, operatorRole.id);
      const all = await api.request<AdminRole[]>('GET', '/api/admin/roles');
      const code = all.find((r) => r.code.toLowerCase() === lower);
      role = code ? roles.find((r) => r.id === code.id) : undefined;
      if (role?.id === operatorRole.id) return role;
    }
  }
  if (!role) {
    const mine = roles.map((r) => `${r.title} (${r.id})`).join(', ');
    throw new CliError(`You hold no role '${wanted}' in this tenant; yours: ${mine || 'none'}`, EXIT.REFUSED);
  }
  await switchTo(api, role.id);
  return role;
}

/**
 * A password someone else set (the bootstrap's, an operator's) is temporary: the session can do
 * nothing but change it (40305, ADR 033). The login then asks for the user's own, as the portal's
 * sign-in does, or takes --new-password / PORTAL_NEW_PASSWORD; without one it says what to do.
 */
async function ownPassword(ctx: Ctx, api: PortalApi, username: string, current: string): Promise<void> {
  try {
    await api.request('GET', '/api/front/member/front/infoV2');
    return;
  } catch (err) {
    if (!(err instanceof CliError && /^Error 40305\b/.test(err.message))) throw err;
  }
  const { io, values } = ctx;
  io.stderr.write(`The password of ${username} is temporary (someone else set it): choose your own to go on.\n`);
  const given = str(values, 'new-password') ?? io.env.PORTAL_NEW_PASSWORD;
  let next = given;
  if (next === undefined) {
    const first = await ctx.prompter.ask(`New password for ${username}: `, { hidden: true });
    const again = first ? await ctx.prompter.ask('The same password again: ', { hidden: true }) : null;
    if (!first || again === null) {
      throw new CliError(
        `The password of ${username} is temporary and must be changed before anything else: log in again with ` +
          `--new-password (or PORTAL_NEW_PASSWORD), or sign in once at ${api.conn.server}${api.conn.publicPath}login ` +
          'and choose it there',
        EXIT.REFUSED,
      );
    }
    if (again !== first) throw new CliError('The two passwords differ; the password is unchanged', EXIT.REFUSED);
    next = first;
  }
  const encrypt = await api.encryptor();
  await api.request('POST', '/api/front/account/auth/updatePassword', {
    body: { oldPwd: encrypt(current), newPwd: encrypt(next) },
  });
  io.stderr.write(`Password of ${username} changed.\n`);
}

/**
 * A service account's login (ADR 056): client_credentials at the tenant's token endpoint through
 * openid-client, with the `portal:admin` scope; the secret comes from a file or PORTAL_CLIENT_SECRET,
 * never from the command line (where any user of the machine sees it).
 */
async function serviceLogin(ctx: Ctx, clientId: string): Promise<number> {
  const { values, io } = ctx;
  if (str(values, 'user') !== undefined || str(values, 'password') !== undefined)
    throw usageError('--client-id signs in as a service account: leave out --user and --password');
  const previous = await readSession(ctx.file).catch(() => null);
  const serverText = str(values, 'server') ?? previous?.server;
  if (!serverText) throw usageError('--server is required (e.g. --server http://localhost:8080)');
  const server = normalizeServer(serverText);
  const tenant = str(values, 'tenant') ?? previous?.tenant;
  if (!tenant) throw usageError('--tenant is required with --client-id (the tenant of the OpenID client)');
  const file = str(values, 'client-secret-file');
  let secret = io.env.PORTAL_CLIENT_SECRET;
  if (file !== undefined) {
    try {
      secret = (await readFile(resolve(io.cwd, file), 'utf8')).trim();
    } catch (err) {
      throw new CliError(`Cannot read ${file}: ${(err as Error).message}`, EXIT.USAGE);
    }
  }
  if (!secret) throw usageError('--client-id needs --client-secret-file FILE (or PORTAL_CLIENT_SECRET)');
  const publicPath = normalizePublicPath(str(values, 'public-path') ?? previous?.publicPath ?? '/center/');
  const lang = langOf(values, previous?.lang);
  const oidc = await import('openid-client');
  const issuer = new URL(`${server}/oidc/${encodeURIComponent(tenant)}`);
  const options = {
    ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    ...(io.fetch ? { [oidc.customFetch]: io.fetch } : {}),
  };
  let token: string;
  let expiresIn: number | undefined;
  try {
    const config = await oidc.discovery(issuer, clientId, secret, oidc.ClientSecretBasic(secret), options);
    if (io.fetch) config[oidc.customFetch] = io.fetch;
    const t = await oidc.clientCredentialsGrant(config, { scope: PORTAL_ADMIN_SCOPE });
    token = t.access_token;
    expiresIn = t.expiresIn();
  } catch (err) {
    const e = err as {
      error?: string;
      error_description?: string;
      message?: string;
      status?: number;
      cause?: unknown;
    };
    // A refusal answers an OAuth error: in the body, or (401) in the WWW-Authenticate challenge.
    const challenge = Array.isArray(e.cause)
      ? (e.cause as { parameters?: { error?: string; error_description?: string } }[])[0]?.parameters
      : undefined;
    e.error ??= challenge?.error;
    e.error_description ??= challenge?.error_description;
    if (e.error)
      throw new CliError(`Refused by ${issuer.href}: ${e.error} ${e.error_description ?? ''}`.trim(), EXIT.REFUSED);
    throw new CliError(`Cannot get a token from ${issuer.href}: ${e.message ?? String(err)}`, EXIT.UNREACHABLE);
  }
  const api = new PortalApi({ server, publicPath, tenant, lang, token, bearer: true }, io.fetch);
  await api.loadSignSecret();
  const session: SavedSession = {
    server,
    publicPath,
    tenant,
    clientId,
    ...(lang ? { lang } : {}),
    token,
    signSecret: api.conn.signSecret!,
    ...(expiresIn ? { expiresAt: new Date(Date.now() + expiresIn * 1000).toISOString() } : {}),
  };
  await writeSession(ctx.file, session);
  io.stderr.write(
    `Logged in to ${server} as service account ${clientId} (tenant ${tenant}); ` +
      `token in ${ctx.file}${session.expiresAt ? ` until ${session.expiresAt}` : ''}\n`,
  );
  return EXIT.OK;
}

export async function login(ctx: Ctx): Promise<number> {
  noExtraPositionals(ctx, 0);
  const { values, io } = ctx;
  const clientId = str(values, 'client-id');
  if (clientId !== undefined) return serviceLogin(ctx, clientId);
  const previous = await readSession(ctx.file).catch(() => null);
  const serverText = str(values, 'server') ?? previous?.server;
  if (!serverText) throw usageError('--server is required (e.g. --server http://localhost:8080)');
  const server = normalizeServer(serverText);
  const username = str(values, 'user') ?? previous?.username;
  if (!username) throw usageError('--user is required');
  const publicPath = normalizePublicPath(str(values, 'public-path') ?? previous?.publicPath ?? '/center/');
  const tenant = str(values, 'tenant') ?? previous?.tenant;
  const role = str(values, 'role');
  const lang = langOf(values, previous?.lang);
  const api = new PortalApi({ server, publicPath, tenant, lang }, io.fetch);

  await api.loadSignSecret();
  const kind = await api.request<string>('POST', '/api/front/captcha/getCaptchaType');
  if (kind !== 'image') {
    throw new CliError(
      `The server asks for the behavioural captcha (CAPTCHA_BEHAVIOUR=1), which the CLI cannot answer`,
      EXIT.REFUSED,
    );
  }
  // The password first: the captcha lives two minutes from the moment it is drawn.
  const password =
    str(values, 'password') ?? io.env.PORTAL_PASSWORD ?? (await ask(ctx, `Password for ${username}: `, true));
  const encrypt = await api.encryptor();
  const captchaKey = randomBytes(12).toString('hex');
  const { image } = await api.request<{ image: string }>('GET', '/api/auth/kaptcha/get', {
    query: [
      ['type', 'LOGIN'],
      ['data', captchaKey],
    ],
  });
  let answer = str(values, 'captcha');
  if (answer === undefined) {
    const dir = await mkdtemp(join(tmpdir(), 'portal-captcha-'));
    const file = join(dir, 'captcha.png');
    try {
      await writeFile(file, Buffer.from(image.replace(/^data:[^,]*,/, ''), 'base64'), { mode: 0o600 });
      io.stderr.write(`The login captcha is in ${file}\n`);
      answer = await ask(ctx, 'Captcha answer: ');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  const query: Array<[string, string]> = tenant ? [['tenantCode', tenant]] : [];
  let token: string;
  try {
    token = await api.request<string>('POST', '/api/auth/jwt/front/token', {
      query,
      body: { username, password: encrypt(password), imgvercode: answer, captchaKey },
      auth: false,
    });
  } catch (err) {
    // A second factor is asked (40308, ADR 051): the authenticator's code, or a recovery code.
    const challenge = (err instanceof CliError && (err.data as { challenge?: unknown } | undefined)?.challenge) || null;
    if (typeof challenge !== 'string') throw err;
    const code =
      str(ctx.values, 'otp') ??
      ctx.io.env.PORTAL_OTP ??
      (await ctx.prompter.ask(`Authenticator code (or a recovery code) for ${username}: `, { hidden: false }));
    if (!code)
      throw new CliError('A second factor is required: log in again with --otp CODE (or PORTAL_OTP)', EXIT.USAGE);
    const kind = /^\d{6}$/.test(code.trim()) ? 'totp' : 'recovery';
    token = await api.request<string>('POST', '/api/auth/jwt/front/factor', {
      query,
      body: { challenge, kind, code: code.trim() },
      auth: false,
    });
  }
  api.conn.token = token;
  let roleTitle: string | undefined;
  let tenantCode = tenant;
  try {
    await ownPassword(ctx, api, username, password);
    if (role) roleTitle = (await switchRole(api, role)).title;
    const info = await api.request<{ tenantCode: string; name: string }>('GET', '/api/front/member/front/infoV2');
    tenantCode = info.tenantCode;
  } catch (err) {
    // Leave no session behind that nobody holds the token of.
    await api.request('POST', '/api/auth/jwt/logout').catch(() => undefined);
    throw err;
  }
  const session: SavedSession = {
    server,
    publicPath,
    ...(tenantCode ? { tenant: tenantCode } : {}),
    username,
    ...(role ? { role } : {}),
    ...(lang ? { lang } : {}),
    token: api.conn.token,
    signSecret: api.conn.signSecret!,
    ...(tokenExpiry(api.conn.token!) ? { expiresAt: tokenExpiry(api.conn.token!) } : {}),
  };
  await writeSession(ctx.file, session);
  io.stderr.write(
    `Logged in to ${server} as ${username} (tenant ${tenantCode ?? 'default'}${roleTitle ? `, role ${roleTitle}` : ''}); ` +
      `session in ${ctx.file}${session.expiresAt ? ` until ${session.expiresAt}` : ''}\n`,
  );
  if (role) await warnOfStoredNames(api, io);
  return EXIT.OK;
}

/**
 * An operator is told at login of the tenant's stored names the name grammar refuses (ADR 032),
 * which only a rename mends. A session that may not ask (no operator role) is told nothing.
 */
async function warnOfStoredNames(api: PortalApi, io: CliIo): Promise<void> {
  let report: StoredNameIssues;
  try {
    report = await api.request<StoredNameIssues>('GET', '/api/admin/users/name-issues');
  } catch {
    return;
  }
  if (report.total === 0) return;
  const ids = report.records.slice(0, 20).map((r) => r.id);
  const more = report.total > ids.length ? ` and ${report.total - ids.length} more` : '';
  io.stderr.write(
    `Warning: ${report.total} user(s) of this tenant have stored names that break the name rule (ADR 032): ` +
      `ids ${ids.join(', ')}${more}. See them with "get users/name-issues"; ` +
      `rename with "update users/<id> -s username=…" (or name=…)\n`,
  );
}

export async function logout(ctx: Ctx): Promise<number> {
  noExtraPositionals(ctx, 0);
  const session = await readSession(ctx.file);
  if (!session?.token) {
    ctx.io.stderr.write('Not logged in\n');
    return EXIT.OK;
  }
  const { token: _token, signSecret: _secret, expiresAt: _expires, ...rest } = session;
  let failure: CliError | undefined;
  // A service account's token has no portal session to end: it lapses in minutes (ADR 056).
  if (!expired(session) && !session.clientId) {
    const api = new PortalApi(
      { ...session, lang: langOf(ctx.values, session.lang), tenant: session.tenant },
      ctx.io.fetch,
    );
    try {
      await api.request('POST', '/api/auth/jwt/logout');
    } catch (err) {
      // A session the server ended already is what logout wants; anything else is told.
      if (!(err instanceof CliError) || err.exitCode !== EXIT.SESSION) failure = err as CliError;
    }
  }
  await writeSession(ctx.file, rest);
  if (failure) {
    throw new CliError(
      `${failure.message} (the token is forgotten here; the session lives on until it expires)`,
      failure.exitCode,
    );
  }
  ctx.io.stderr.write(`Logged out from ${session.server}\n`);
  return EXIT.OK;
}

// ---- get / create / update / delete ---------------------------------------------------------------

const PAGE = 100;

/** Every record of a paged list, page after page. */
async function allPages<T>(api: PortalApi, path: string, query: Query): Promise<T[]> {
  const rest = query.filter(([k]) => k !== 'page' && k !== 'limit');
  const records: T[] = [];
  for (let page = 1; ; page++) {
    const data = await api.request<Paged<T>>('GET', path, {
      query: [...rest, ['page', String(page)], ['limit', String(PAGE)]],
    });
    records.push(...data.records);
    if (data.records.length === 0 || records.length >= data.total) return records;
  }
}

/** One item: by its own GET where the API has one, else found in the list. */
async function findItem(api: PortalApi, t: Extract<Target, { kind: 'item' }>, query: Query): Promise<unknown> {
  const path = `/api/admin/${t.name}`;
  if (t.res.item) return api.request('GET', `${path}/${encodeURIComponent(t.id)}`, { query });
  const items =
    t.res.get === 'paged'
      ? await allPages<{ id: string }>(api, path, query)
      : await api.request<{ id: string }[]>('GET', path, { query });
  const item = items.find((i) => i.id === t.id);
  if (!item) throw new CliError(`Error 404: no ${t.res.singular} with id '${t.id}'`, EXIT.REFUSED);
  return item;
}

export async function get(ctx: Ctx): Promise<number> {
  noExtraPositionals(ctx, 1);
  const t = resolveTarget(ctx.positionals[0]);
  const format = formatOf(str(ctx.values, 'format'));
  const fields = fieldList(str(ctx.values, 'fields'));
  const query = queryPairs(list(ctx.values, 'query'));
  const all = flag(ctx.values, 'all');
  if (
    !(t.kind === 'collection' && t.res.get) &&
    !(t.kind === 'action' && t.method === 'GET') &&
    t.kind !== 'item' &&
    t.kind !== 'read'
  ) {
    throw usageError(`cannot get ${ctx.positionals[0]}`);
  }
  if (t.kind === 'item' && t.res.get !== 'list' && t.res.get !== 'paged') {
    throw usageError(`cannot get ${ctx.positionals[0]}`);
  }
  return withSession(ctx, async (api) => {
    let data: unknown;
    if (t.kind === 'item')
      data = t.res.one ? await api.request('GET', apiPath(t), { query }) : await findItem(api, t, query);
    else if ((t.kind === 'collection' && t.res.get === 'paged') || (t.kind === 'read' && t.shape === 'paged')) {
      if (all) data = await allPages(api, apiPath(t), query);
      else {
        const paged = await api.request<Paged<unknown>>('GET', apiPath(t), { query });
        data = paged.records;
        const page = Number(query.findLast(([k]) => k === 'page')?.[1] ?? 1);
        const limit = Number(query.findLast(([k]) => k === 'limit')?.[1] ?? 20);
        if (page * limit < paged.total) {
          ctx.io.stderr.write(
            `${paged.records.length} of ${paged.total} shown (page ${page}): -q page=${page + 1} or --all for more\n`,
          );
        }
      }
    } else data = await api.request('GET', apiPath(t), { query });
    ctx.io.stdout.write(render(data, format, fields));
    return EXIT.OK;
  });
}

export async function create(ctx: Ctx): Promise<number> {
  noExtraPositionals(ctx, 1);
  const t = resolveTarget(ctx.positionals[0]);
  const method = createMethod(t);
  const body = await bodyOf(ctx);
  checkNames(t, body);
  return withSession(ctx, async (api) => {
    await encryptPasswords(api, body);
    const data = await api.request(method, apiPath(t), { body });
    if (t.kind === 'collection' && typeof data === 'string') {
      ctx.io.stdout.write(`${data}\n`);
      ctx.io.stderr.write(`Created new ${t.res.singular} with id '${data}'\n`);
    } else if (isObject(data) && typeof data.clientId === 'string' && typeof data.id === 'string') {
      // An OIDC client created, or its secret replaced: the secret is printed this once, never again.
      const secret = typeof data.secret === 'string' ? data.secret : null;
      ctx.io.stdout.write(`id: ${data.id}\nclient_id: ${data.clientId}\n${secret ? `client_secret: ${secret}\n` : ''}`);
      const what =
        t.kind === 'collection'
          ? `Created new ${t.res.singular} with id '${data.id}'`
          : `New secret for ${t.res.singular} '${data.id}': the one before no longer works`;
      const once = secret
        ? `; the secret is shown this once: keep it now (create ${t.name}/${data.id}/secret replaces it)`
        : ' (a public client: no secret, PKCE required)';
      ctx.io.stderr.write(`${what}${once}\n`);
    } else if (t.kind === 'collection' && isObject(data) && typeof data.id === 'string') {
      // A notice answers its id and how many it went to.
      ctx.io.stdout.write(`${data.id}\n`);
      const more = typeof data.recipients === 'number' ? ` (${data.recipients} recipients)` : '';
      ctx.io.stderr.write(`Created new ${t.res.singular} with id '${data.id}'${more}\n`);
    } else if (data !== null && data !== undefined) ctx.io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    return EXIT.OK;
  });
}

export async function update(ctx: Ctx): Promise<number> {
  noExtraPositionals(ctx, 1);
  const t = resolveTarget(ctx.positionals[0]);
  const method = updateMethod(t);
  const body = await bodyOf(ctx);
  if (method !== 'POST' && Object.keys(body).length === 0)
    throw usageError('nothing to update: give -s key=value or -f');
  checkNames(t, body);
  return withSession(ctx, async (api) => {
    let sent = body;
    if (t.kind === 'collection' && !flag(ctx.values, 'no-merge')) {
      // A PUT replaces the whole object: read it, change the fields given.
      const current = await api.request<Record<string, unknown>>('GET', apiPath(t));
      const base =
        t.name === 'settings'
          ? (current.settings as Record<string, unknown>)
          : t.name === 'security-policy'
            ? (current.policy as Record<string, unknown>)
            : current;
      sent = { ...base, ...body };
      if (t.name === 'settings') for (const [k, v] of Object.entries(sent)) if (v === null) delete sent[k];
    }
    await encryptPasswords(api, sent);
    const data = await api.request(method, apiPath(t), { body: sent });
    if (data !== null && data !== undefined) ctx.io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    return EXIT.OK;
  });
}

export async function remove(ctx: Ctx): Promise<number> {
  noExtraPositionals(ctx, 1);
  const t = resolveTarget(ctx.positionals[0]);
  const method = deleteMethod(t);
  return withSession(ctx, async (api) => {
    await api.request(method, apiPath(t));
    return EXIT.OK;
  });
}

// ---- shortcuts -----------------------------------------------------------------------------------

/** The user `--username` or `--userid` names (usernames compare without case, as the server's). */
async function findUser(api: PortalApi, values: Values): Promise<AdminUser> {
  const id = str(values, 'userid');
  const username = str(values, 'username');
  if (!id === !username) throw usageError('give --username NAME or --userid ID');
  if (id) return (await findItem(api, { kind: 'item', name: 'users', res: RESOURCES.users!, id }, [])) as AdminUser;
  // `q` finds the word anywhere (names, mobiles too): the one whose username it is, read as
  // sign-in reads a typed one (normalizeUsername).
  const wanted = normalizeUsername(username!);
  const records = await allPages<AdminUser>(api, '/api/admin/users', [['q', wanted]]);
  const user = records.find((u) => u.username.toLowerCase() === wanted.toLowerCase());
  if (!user) throw new CliError(`Error 404: no user '${username}'`, EXIT.REFUSED);
  return user;
}

export async function setPassword(ctx: Ctx): Promise<number> {
  noExtraPositionals(ctx, 0);
  if (!str(ctx.values, 'userid') === !str(ctx.values, 'username'))
    throw usageError('give --username NAME or --userid ID');
  return withSession(ctx, async (api) => {
    const user = await findUser(api, ctx.values);
    const password =
      str(ctx.values, 'new-password') ??
      ctx.io.env.PORTAL_NEW_PASSWORD ??
      (await ask(ctx, `New password for ${user.username}: `, true));
    const encrypt = await api.encryptor();
    const permanent = flag(ctx.values, 'permanent');
    await api.request('POST', `/api/admin/users/${encodeURIComponent(user.id)}/password`, {
      body: { password: encrypt(password), temporary: !permanent },
    });
    ctx.io.stderr.write(
      `Password of ${user.username} set${permanent ? '' : ' (temporary: they choose their own at the next sign-in)'}\n`,
    );
    return EXIT.OK;
  });
}

async function changeRoles(ctx: Ctx, add: boolean): Promise<number> {
  noExtraPositionals(ctx, 0);
  const names = list(ctx.values, 'rolename');
  const ids = list(ctx.values, 'roleid');
  if (!str(ctx.values, 'userid') === !str(ctx.values, 'username'))
    throw usageError('give --username NAME or --userid ID');
  if (names.length + ids.length === 0) throw usageError('give --rolename ROLE or --roleid ID (one or more)');
  return withSession(ctx, async (api) => {
    const user = await findUser(api, ctx.values);
    const roles = await api.request<AdminRole[]>('GET', '/api/admin/roles');
    const named = [
      ...names.map((n) => {
        const role =
          roles.find((r) => r.code.toLowerCase() === n.toLowerCase()) ??
          roles.find((r) => r.title === n || (r.titleEn !== '' && r.titleEn.toLowerCase() === n.toLowerCase()));
        if (!role) {
          throw new CliError(
            `Error 404: no role '${n}'; roles: ${roles.map((r) => `${r.code} (${r.title})`).join(', ')}`,
            EXIT.REFUSED,
          );
        }
        return role;
      }),
      ...ids.map((id) => {
        const role = roles.find((r) => r.id === id);
        if (!role) throw new CliError(`Error 404: no role with id '${id}'`, EXIT.REFUSED);
        return role;
      }),
    ];
    const held = user.roles.map((r) => r.id);
    const change = new Set(named.map((r) => r.id));
    const roleIds = add ? [...new Set([...held, ...change])] : held.filter((id) => !change.has(id));
    await api.request('PUT', `/api/admin/users/${encodeURIComponent(user.id)}/roles`, { body: { roleIds } });
    const titles = roles.filter((r) => roleIds.includes(r.id)).map((r) => r.code);
    ctx.io.stderr.write(`Roles of ${user.username}: ${titles.join(', ') || 'none'}\n`);
    return EXIT.OK;
  });
}

export const addRoles = (ctx: Ctx) => changeRoles(ctx, true);
export const removeRoles = (ctx: Ctx) => changeRoles(ctx, false);

export async function reviewEnterprise(ctx: Ctx): Promise<number> {
  noExtraPositionals(ctx, 0);
  const { values } = ctx;
  const pass = flag(values, 'pass');
  if (pass === flag(values, 'reject')) throw usageError('give --pass or --reject');
  const id = str(values, 'id');
  const name = str(values, 'name');
  if (!id === !name) throw usageError('give --name NAME or --id ID');
  const reason = str(values, 'reason');
  return withSession(ctx, async (api) => {
    let target = id ? { id, name: id } : undefined;
    if (!target) {
      const records = await allPages<AdminEnterprise>(api, '/api/admin/enterprises', [['q', name!]]);
      const matches = records.filter((e) => e.name === name);
      if (matches.length === 0) throw new CliError(`Error 404: no enterprise named '${name}'`, EXIT.REFUSED);
      if (matches.length > 1) {
        throw usageError(
          `several enterprises are named '${name}' (ids ${matches.map((e) => e.id).join(', ')}): use --id`,
        );
      }
      target = matches[0]!;
    }
    await api.request('POST', `/api/admin/enterprises/${encodeURIComponent(target.id)}/review`, {
      body: { estatus: pass ? 1 : 2, ...(reason !== undefined ? { reason } : {}) },
    });
    ctx.io.stderr.write(`Enterprise ${target.name} ${pass ? 'passed' : 'not passed'}\n`);
    return EXIT.OK;
  });
}

const countEntries = (menus: { children?: unknown[] }[]): number =>
  menus.reduce((n, m) => n + 1 + countEntries((m.children ?? []) as { children?: unknown[] }[]), 0);

export async function exportMenus(ctx: Ctx): Promise<number> {
  noExtraPositionals(ctx, 0);
  const out = str(ctx.values, 'output');
  return withSession(ctx, async (api) => {
    const tree = await api.request<MenuExport>('GET', '/api/admin/menus/export');
    const text = `${JSON.stringify(tree, null, 2)}\n`;
    if (out === undefined || out === '-') ctx.io.stdout.write(text);
    else {
      const file = resolve(ctx.io.cwd, out);
      try {
        await writeFile(file, text);
      } catch (err) {
        throw usageError(`cannot write ${out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      ctx.io.stderr.write(`Exported ${countEntries(tree.menus)} menu entries to ${file}\n`);
    }
    return EXIT.OK;
  });
}

export async function importMenus(ctx: Ctx): Promise<number> {
  noExtraPositionals(ctx, 0);
  const file = required(ctx.values, 'file', '-f FILE');
  const tree = await readJsonFile(ctx, file);
  if (!isObject(tree) || tree.format !== 1 || !Array.isArray(tree.menus)) {
    throw usageError(`${file} is not a menu export ({"format": 1, "menus": [...]})`);
  }
  return withSession(ctx, async (api) => {
    const count = await api.request<number>('POST', '/api/admin/menus/import', { body: tree });
    ctx.io.stdout.write(`${count}\n`);
    ctx.io.stderr.write(`Imported ${count} menu entries\n`);
    return EXIT.OK;
  });
}

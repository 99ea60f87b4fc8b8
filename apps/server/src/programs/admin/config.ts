/**
 * Where `npm run admin` keeps its session, like kcadm's ~/.keycloak/kcadm.config: one JSON file,
 * `~/.portal-admin.json` unless `--config FILE` or PORTAL_ADMIN_CONFIG names another, readable by
 * its owner only (mode 0600): it holds a live session token and the installation's signing secret.
 */
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { CliError, EXIT } from './args.js';

export interface SavedSession {
  /** `http(s)://host[:port]`, no trailing slash. */
  server: string;
  /** The web app's base path, where `config.js` is served (`/center/`). */
  publicPath: string;
  /** The tenant signed in to. */
  tenant?: string;
  username?: string;
  /**
   * A service account's login (ADR 056): its OpenID client's id. The token is then an access token
   * of the tenant's OpenID Provider, sent as `Authorization: Bearer`; the secret is never kept.
   */
  clientId?: string;
  /** The role switched to at login (`--role`), as given. */
  role?: string;
  /** The language of the server's messages: `zh` (default) or `en`. */
  lang?: 'zh' | 'en';
  token?: string;
  signSecret?: string;
  /** When the token expires (ISO 8601), from its `exp`. */
  expiresAt?: string;
}

export const DEFAULT_CONFIG_NAME = '.portal-admin.json';

/** The config file: `--config`, else the caller's default, else PORTAL_ADMIN_CONFIG, else ~/.portal-admin.json. */
export function configPath(
  option: string | undefined,
  io: { cwd: string; env: Record<string, string | undefined>; configPath?: string | undefined },
): string {
  if (option) return resolve(io.cwd, option);
  if (io.configPath) return io.configPath;
  if (io.env.PORTAL_ADMIN_CONFIG) return resolve(io.cwd, io.env.PORTAL_ADMIN_CONFIG);
  return join(homedir(), DEFAULT_CONFIG_NAME);
}

/** The saved session, or null when there is no file. A file that is not one is an error (exit 3). */
export async function readSession(path: string): Promise<SavedSession | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliError(`Cannot read ${path}: ${(err as Error).message}`, EXIT.SESSION);
  }
  try {
    const value = JSON.parse(text) as SavedSession;
    if (typeof value !== 'object' || value === null || typeof value.server !== 'string') throw new Error('no server');
    return value;
  } catch {
    throw new CliError(`${path} is not a session file of this CLI: log in again (or remove it)`, EXIT.SESSION);
  }
}

/** Writes the session (mode 0600, replaced at once: never half a file). */
export async function writeSession(path: string, session: SavedSession): Promise<void> {
  const temp = join(dirname(path), `.${Date.now()}-${process.pid}.portal-admin.tmp`);
  try {
    await writeFile(temp, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw new CliError(`Cannot write ${path}: ${(err as Error).message}`, EXIT.USAGE);
  }
}

/** A JWT's `exp` as ISO 8601, or undefined when the token has none (or is no JWT). */
export function tokenExpiry(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof exp === 'number' ? new Date(exp * 1000).toISOString() : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the saved session has expired at `now`. */
export const expired = (session: SavedSession, now = Date.now()): boolean =>
  session.expiresAt !== undefined && Date.parse(session.expiresAt) <= now;

/**
 * Apache httpd (Debian's apache2-bin) with an independent sign-on client that many sites put in
 * front of their applications, written in C by others:
 * - mod_auth_cas (libapache2-mod-auth-cas), a CAS client. Two ports: the first validates at
 *   /p3/serviceValidate (CAS 3.0, with attributes) (a protected /app/ and a /renew/ that asks for a
 *   new login), the second at /samlValidate (SAML 1.1).
 * - mod_auth_openidc (libapache2-mod-auth-openidc), an OpenID Connect relying party: a protected
 *   /protected/ with its redirect URI, back-channel logout and RP-initiated logout below it.
 * A CGI page prints the user and what the module put in the request.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../apps/server/src/db/embedded.js';

export const APACHE = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';

interface Apache {
  log(): string;
  stop(): Promise<void>;
}

export interface RunningApache extends Apache {
  /** http://127.0.0.1:<port>: validates at /p3/serviceValidate. */
  url: string;
  /** The same module validating at /samlValidate. */
  samlUrl: string;
}

/** A CGI page printing the user and the request's variables whose names start with `prefix`. */
const page = (prefix: string) => `#!/bin/sh
printf 'Content-Type: text/plain; charset=utf-8\\r\\n\\r\\n'
echo "user=$REMOTE_USER"
env | grep '^${prefix}' | sort
`;

/**
 * Starts Apache on `ports` with the directives every site here shares, then `site`'s (`{root}`
 * there: the server root), from a fresh server root holding `files` (path under htdocs → content;
 * a `.cgi` is a CGI script) and a public /ready.txt. Ready when /ready.txt answers.
 */
async function runApache(
  name: string,
  { ports, modules, files, site }: { ports: number[]; modules: string[]; files: Record<string, string>; site: string },
): Promise<Apache> {
  for (const module of modules) {
    if (!existsSync(APACHE) || !existsSync(join(MODULES, `mod_${module}.so`))) {
      throw new Error(`apache2-bin and the package of mod_${module} are needed (.ci/run installs them)`);
    }
  }
  const root = mkdtempSync(join(tmpdir(), `${name}-`));
  for (const dir of ['run', 'logs', 'cache', 'htdocs']) mkdirSync(join(root, dir), { recursive: true });
  for (const [path, content] of Object.entries({ 'ready.txt': 'ready\n', ...files })) {
    const file = join(root, 'htdocs', path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, content);
    if (path.endsWith('.cgi')) chmodSync(file, 0o755);
  }
  chmodSync(root, 0o755);
  chmodSync(join(root, 'htdocs'), 0o755);
  // The workers run as nobody (Apache will not serve as root); its session cache must be theirs.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(join(root, 'cache'), 65534, 65534);
  const conf = `
ServerRoot "${root}"
PidFile "${root}/run/httpd.pid"
Mutex file:${root}/run default
ErrorLog "${root}/logs/error.log"
LoadModule mpm_prefork_module ${MODULES}/mod_mpm_prefork.so
LoadModule authn_core_module ${MODULES}/mod_authn_core.so
LoadModule authz_core_module ${MODULES}/mod_authz_core.so
LoadModule authz_user_module ${MODULES}/mod_authz_user.so
LoadModule mime_module ${MODULES}/mod_mime.so
LoadModule dir_module ${MODULES}/mod_dir.so
LoadModule cgi_module ${MODULES}/mod_cgi.so
${modules.map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`).join('\n')}
${asRoot ? 'User nobody\nGroup nogroup' : ''}
ServerName 127.0.0.1
${ports.map((p) => `Listen 127.0.0.1:${p}`).join('\n')}
DocumentRoot "${root}/htdocs"
TypesConfig /etc/mime.types
DirectoryIndex index.cgi
StartServers 2
MaxRequestWorkers 8
<Directory />
  AllowOverride None
  Require all denied
</Directory>
<Directory "${root}/htdocs">
  Options +ExecCGI
  AddHandler cgi-script .cgi
  Require all granted
</Directory>
${site.replaceAll('{root}', root)}
`;
  writeFileSync(join(root, 'httpd.conf'), conf);
  // Its own process group: Apache signals its whole group when it stops its workers.
  const child = spawn(APACHE, ['-f', join(root, 'httpd.conf'), '-DFOREGROUND'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const log = () => {
    const file = join(root, 'logs/error.log');
    return `${output}${existsSync(file) ? readFileSync(file, 'utf8') : ''}`;
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`apache exited with ${child.exitCode}:\n${log()}`);
    const ok = await fetch(`http://127.0.0.1:${ports[0]}/ready.txt`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`apache did not start:\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    log,
    stop: () =>
      new Promise<void>((done) => {
        const finish = () => {
          rmSync(root, { recursive: true, force: true });
          done();
        };
        if (child.exitCode !== null) return finish();
        child.once('exit', finish);
        child.kill('SIGTERM');
      }),
  };
}

/** Apache with mod_auth_cas, signing in at the sign-on server `casBase`. */
export async function startApache(casBase: string): Promise<RunningApache> {
  const [port, samlPort] = [await freePort(), await freePort()];
  const cgi = page('HTTP_CAS_');
  const apache = await runApache('mod-auth-cas', {
    ports: [port, samlPort],
    modules: ['auth_cas'],
    files: { 'app/index.cgi': cgi, 'renew/index.cgi': cgi },
    site: `
LogLevel warn auth_cas:debug
CASLoginURL ${casBase}/cas/login
CASValidateURL ${casBase}/cas/p3/serviceValidate
CASVersion 2
CASCookiePath {root}/cache/
CASCertificatePath /etc/ssl/certs/
CASSSOEnabled On
CASDebug On
<Location "/app/">
  AuthType CAS
  CASAuthNHeader CAS-User
  CASScrubRequestHeaders On
  Require valid-user
</Location>
<Location "/renew/">
  AuthType CAS
  CASRenew /renew/
  CASAuthNHeader CAS-User
  Require valid-user
</Location>
<VirtualHost 127.0.0.1:${samlPort}>
  ServerName 127.0.0.1
  CASValidateURL ${casBase}/cas/samlValidate
  CASValidateSAML On
</VirtualHost>
`,
  });
  return { ...apache, url: `http://127.0.0.1:${port}`, samlUrl: `http://127.0.0.1:${samlPort}` };
}

/** The addresses of mod_auth_openidc on `port`, which its client registration names. */
export function openidcAddresses(port: number) {
  const url = `http://127.0.0.1:${port}`;
  const redirectUri = `${url}/protected/redirect_uri`;
  return {
    url,
    /** The protected page. */
    protectedUrl: `${url}/protected/`,
    /** Where the provider sends the code (the module's own handler). */
    redirectUri,
    /** Where the provider posts logout tokens. */
    backchannelLogoutUri: `${redirectUri}?logout=backchannel`,
    /** A public page, where RP-initiated logout comes back to. */
    signedOutUrl: `${url}/signed-out.txt`,
    /** RP-initiated logout: the module ends its session and sends the browser to the provider's. */
    logoutUrl: `${redirectUri}?logout=${encodeURIComponent(`${url}/signed-out.txt`)}`,
  };
}

export type RunningOpenidc = Apache & ReturnType<typeof openidcAddresses>;

/**
 * Apache with mod_auth_openidc on `port` as the confidential client `clientId` of `issuer`
 * (discovery, PKCE S256, the user as REMOTE_USER from `preferred_username`, the claims as
 * OIDC_CLAIM_* variables, sessions in shared memory).
 */
export async function startOpenidcApache(
  port: number,
  { issuer, clientId, clientSecret, scope }: { issuer: string; clientId: string; clientSecret: string; scope: string },
): Promise<RunningOpenidc> {
  const at = openidcAddresses(port);
  const apache = await runApache('mod-auth-openidc', {
    ports: [port],
    modules: ['auth_openidc'],
    files: { 'protected/index.cgi': page('OIDC_CLAIM_'), 'signed-out.txt': 'signed out\n' },
    site: `
LogLevel warn auth_openidc:debug
OIDCProviderMetadataURL ${issuer}/.well-known/openid-configuration
OIDCClientID ${clientId}
OIDCClientSecret ${clientSecret}
OIDCRedirectURI ${at.redirectUri}
OIDCCryptoPassphrase ${randomBytes(32).toString('hex')}
OIDCPKCEMethod S256
OIDCScope "${scope}"
OIDCRemoteUserClaim preferred_username
OIDCPassClaimsAs environment
<Location "/protected/">
  AuthType openid-connect
  Require valid-user
</Location>
`,
  });
  return { ...apache, ...at };
}

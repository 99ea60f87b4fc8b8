/**
 * Apache httpd with mod_auth_cas (Debian's apache2-bin and libapache2-mod-auth-cas): an independent
 * CAS client, written in C, that many sites put in front of their applications. Two ports: the
 * first validates at /p3/serviceValidate (CAS 3.0, with attributes) (a protected /app/ and a /renew/ that asks for a new login),
 * the second at /samlValidate (SAML 1.1). A CGI page prints the user and the attributes it got.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../apps/server/src/db/embedded.js';

export const APACHE = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';

export interface RunningApache {
  /** http://127.0.0.1:<port>: validates at /p3/serviceValidate. */
  url: string;
  /** The same module validating at /samlValidate. */
  samlUrl: string;
  log(): string;
  stop(): Promise<void>;
}

const PAGE = `#!/bin/sh
printf 'Content-Type: text/plain; charset=utf-8\\r\\n\\r\\n'
echo "user=$REMOTE_USER"
env | grep '^HTTP_CAS_' | sort
`;

export async function startApache(casBase: string): Promise<RunningApache> {
  if (!existsSync(APACHE) || !existsSync(join(MODULES, 'mod_auth_cas.so'))) {
    throw new Error('apache2-bin and libapache2-mod-auth-cas are needed (.ci/run installs them)');
  }
  const root = mkdtempSync(join(tmpdir(), 'mod-auth-cas-'));
  const [port, samlPort] = [await freePort(), await freePort()];
  for (const dir of ['run', 'logs', 'cache', 'htdocs/app', 'htdocs/renew'])
    mkdirSync(join(root, dir), { recursive: true });
  for (const dir of ['app', 'renew']) {
    const file = join(root, 'htdocs', dir, 'index.cgi');
    writeFileSync(file, PAGE);
    chmodSync(file, 0o755);
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
LogLevel warn auth_cas:debug
LoadModule mpm_prefork_module ${MODULES}/mod_mpm_prefork.so
LoadModule authn_core_module ${MODULES}/mod_authn_core.so
LoadModule authz_core_module ${MODULES}/mod_authz_core.so
LoadModule authz_user_module ${MODULES}/mod_authz_user.so
LoadModule mime_module ${MODULES}/mod_mime.so
LoadModule dir_module ${MODULES}/mod_dir.so
LoadModule cgi_module ${MODULES}/mod_cgi.so
LoadModule auth_cas_module ${MODULES}/mod_auth_cas.so
${asRoot ? 'User nobody\nGroup nogroup' : ''}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
Listen 127.0.0.1:${samlPort}
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
CASLoginURL ${casBase}/cas/login
CASValidateURL ${casBase}/cas/p3/serviceValidate
CASVersion 2
CASCookiePath ${root}/cache/
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
  // Ready when it answers (a protected page sends the visitor to the sign-on server).
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`apache exited with ${child.exitCode}:\n${log()}`);
    const ok = await fetch(`http://127.0.0.1:${samlPort}/app/`, { redirect: 'manual' }).then(
      (r) => r.status === 302,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`apache did not start:\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    samlUrl: `http://127.0.0.1:${samlPort}`,
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

/**
 * Debian's nginx (`apt-get install nginx`) as a child process of a test, configured by the
 * deployment's own file, docs/deploy/nginx.conf: only its listen addresses, the instances' ports
 * and the certificate paths are replaced (each must be found exactly once, so the file and the test
 * cannot drift apart unnoticed), plus one test-only header naming the instance that answered. It
 * runs in the foreground from a directory of its own (pid, logs, temp files), as root or not.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const NGINX = '/usr/sbin/nginx';
export const NGINX_CONF = resolve(import.meta.dirname, '../../../../docs/deploy/nginx.conf');
/** The test-only answer header: the instance (`127.0.0.1:<port>`) nginx sent the request to. */
export const UPSTREAM_HEADER = 'x-upstream';

export interface NginxPorts {
  /** The HTTPS server (TLS terminated by nginx). */
  tls: number;
  /** The plain HTTP server, which only redirects. */
  plain: number;
  /** The two instances behind it. */
  upstreams: [number, number];
}

export interface RunningNginx {
  log(): string;
  stop(): Promise<void>;
}

/** Replaces `from` in `text`, which must occur exactly once. */
function once(text: string, from: string | RegExp, to: string): string {
  const pattern = typeof from === 'string' ? new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g') : from;
  const found = text.match(new RegExp(pattern.source, 'gm'))?.length ?? 0;
  if (found !== 1) throw new Error(`docs/deploy/nginx.conf: expected "${String(from)}" once, found it ${found} times`);
  return text.replace(new RegExp(pattern.source, 'm'), to);
}

/** docs/deploy/nginx.conf for loopback: these ports, this certificate, the test's header. */
export function renderNginxConf(source: string, ports: NginxPorts, cert: { cert: string; key: string }): string {
  let conf = source.replace(/^\s*listen \[::\]:.*\n/gm, '');
  conf = once(conf, 'listen 80;', `listen 127.0.0.1:${ports.plain};`);
  conf = once(conf, 'listen 443 ssl http2;', `listen 127.0.0.1:${ports.tls} ssl http2;`);
  conf = once(conf, 'server 127.0.0.1:8081 ', `server 127.0.0.1:${ports.upstreams[0]} `);
  conf = once(conf, 'server 127.0.0.1:8082 ', `server 127.0.0.1:${ports.upstreams[1]} `);
  conf = once(conf, /ssl_certificate \S+;/, `ssl_certificate ${cert.cert};`);
  conf = once(conf, /ssl_certificate_key \S+;/, `ssl_certificate_key ${cert.key};`);
  return once(
    conf,
    /^(\s*)(add_header Strict-Transport-Security .*)$/,
    `$1$2\n$1add_header ${UPSTREAM_HEADER} $upstream_addr always;`,
  );
}

const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

export async function startNginx(ports: NginxPorts, cert: { cert: string; key: string }): Promise<RunningNginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install nginx (.ci/run installs it)`);
  const dir = mkdtempSync(join(tmpdir(), 'portal-nginx-'));
  // As root, the master process reads the certificate and opens the logs; its workers run as
  // nobody and need to reach their temp directories (request bodies) below this one.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'portal.conf'), renderNginxConf(readFileSync(NGINX_CONF, 'utf8'), ports, cert));
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${asRoot ? 'user nobody nogroup;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
    default_type application/octet-stream;
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/portal.conf;
}
`,
  );
  const child = spawn(
    NGINX,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const log = () => {
    const file = join(dir, 'error.log');
    return `${output}${existsSync(file) ? readFileSync(file, 'utf8') : ''}`;
  };
  const deadline = Date.now() + 10_000;
  while (!(await listening(ports.tls)) || !(await listening(ports.plain))) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${log()}`);
    if (Date.now() > deadline) throw new Error(`nginx did not start:\n${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    log,
    stop: () =>
      new Promise<void>((done) => {
        const finish = () => {
          rmSync(dir, { recursive: true, force: true });
          done();
        };
        if (child.exitCode !== null || child.signalCode !== null) return finish();
        child.once('exit', finish);
        // Fast shutdown: open connections are closed, nothing is waited for.
        child.kill('SIGTERM');
      }),
  };
}

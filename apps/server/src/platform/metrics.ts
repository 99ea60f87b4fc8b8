/**
 * Prometheus metrics: one registry per app, read on a port of its own (METRICS_PORT),
 * never on the public one. Modules count what they do through the small `Metrics` interface they
 * are given; gauges are read when scraped.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RefusalReason } from './addresses.js';

export type LoginResult = 'success' | 'failure' | 'locked' | 'disabled' | 'captcha_failed';
export type SmsResult = 'sent' | 'refused' | 'failed';
/** Why the server sends a request to another server (platform/outbound.ts). */
export type OutboundPurpose =
  'sso_logout' | 'cas_validate' | 'sms_webhook' | 'sso_registration' | 'oidc_logout' | 'oidc_client';
/** 2xx, another status (a redirect is one: never followed), no answer, refused by the address rule, over a cap. */
export type OutboundResult = 'ok' | 'status' | 'failed' | 'refused' | 'dropped';
/** Why an upload was refused: one of the per-user limits, its size, or its name or content. */
export type UploadRefusal =
  'files_per_hour' | 'files_per_day' | 'bytes_per_hour' | 'bytes_per_day' | 'too_large' | 'type';
/** Why stored files were removed: no row names them as used, or no row is left for a file on disk. */
export type FileRemoval = 'unreferenced' | 'orphaned';

export function createMetrics({ process: withProcess }: { process: boolean }) {
  const registry = new Registry();
  // The process's own figures (CPU, memory, event-loop lag, handles), only where they are read:
  // each set samples the event loop.
  if (withProcess) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const registers = [registry];
  const requests = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP requests, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const logins = new Counter({
    name: 'portal_logins_total',
    help: 'Logins (the portal form and the sign-on server), by result',
    labelNames: ['result'] as const,
    registers,
  });
  const captchas = new Counter({
    name: 'portal_captcha_checks_total',
    help: 'Captcha answers checked, by kind (image, behaviour) and result (pass, fail)',
    labelNames: ['kind', 'result'] as const,
    registers,
  });
  const sms = new Counter({
    name: 'portal_sms_total',
    help: 'SMS codes asked for, by result (sent, refused by a limit, failed at the provider)',
    labelNames: ['result'] as const,
    registers,
  });
  const outbound = new Counter({
    name: 'portal_outbound_requests_total',
    help: 'Requests to other servers, by purpose and result (ok, status: another HTTP status, failed, refused by the address rule, dropped over a cap)',
    labelNames: ['purpose', 'result'] as const,
    registers,
  });
  const outboundRefused = new Counter({
    name: 'portal_outbound_refused_total',
    help: 'Addresses the outbound address rule refused (at registration or when called), by purpose and kind of address',
    labelNames: ['purpose', 'reason'] as const,
    registers,
  });
  const uploadsRefused = new Counter({
    name: 'portal_uploads_refused_total',
    help: 'Uploads refused, by reason (a per-user limit, too large, a name or content not allowed)',
    labelNames: ['reason'] as const,
    registers,
  });
  const filesRemoved = new Counter({
    name: 'portal_files_removed_total',
    help: 'Uploaded files removed by housekeeping, by reason (unreferenced after the grace period, orphaned on disk)',
    labelNames: ['reason'] as const,
    registers,
  });
  const bytesRemoved = new Counter({
    name: 'portal_files_removed_bytes_total',
    help: 'Bytes of the uploaded files removed by housekeeping, by reason',
    labelNames: ['reason'] as const,
    registers,
  });

  return {
    registry,
    /** One answered request; `route` is the route's template (`/api/x/:id`), never the raw path. */
    request(method: string, route: string, status: number, seconds: number): void {
      requests.observe({ method, route, status_code: String(status) }, seconds);
    },
    login(result: LoginResult): void {
      logins.inc({ result });
    },
    captcha(kind: 'image' | 'behaviour', passed: boolean): void {
      captchas.inc({ kind, result: passed ? 'pass' : 'fail' });
    },
    sms(result: SmsResult): void {
      sms.inc({ result });
    },
    outbound(purpose: OutboundPurpose, result: OutboundResult, count = 1): void {
      outbound.inc({ purpose, result }, count);
    },
    outboundRefused(purpose: OutboundPurpose, reason: RefusalReason): void {
      outboundRefused.inc({ purpose, reason });
    },
    uploadRefused(reason: UploadRefusal): void {
      uploadsRefused.inc({ reason });
    },
    filesRemoved(reason: FileRemoval, files: number, bytes: number): void {
      filesRemoved.inc({ reason }, files);
      bytesRemoved.inc({ reason }, bytes);
    },
    /** A gauge read when scraped: one value, or one per value of `label`. */
    gauge(name: string, help: string, read: () => number | Record<string, number>, label = 'state'): void {
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers,
        collect() {
          const value = read();
          if (typeof value === 'number') this.set(value);
          else for (const [k, v] of Object.entries(value)) this.set({ [label]: k }, v);
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * `/metrics` for Prometheus on `host:port`, and nothing else there. A server of its own, so the
 * public port never shows it, whatever proxy stands in front.
 */
export async function startMetricsServer(metrics: Metrics, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

export const metricsPort = (server: Server) => (server.address() as AddressInfo).port;

/**
 * Prometheus metrics: what the portal counts (requests by route template, logins, captchas, pools,
 * streams, the event loop) and where it shows them: on a server of their own, never on the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/harness.js';
import { metricsPort, startMetricsServer } from './metrics.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ METRICS_PORT: '9464' });
});
afterAll(async () => ctx?.close());

/** The value of one sample line of the exposition text, 0 when absent. */
function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`) || l.startsWith(`${name}{${labels},`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('metrics', () => {
  it('count logins by result, captchas by kind and result, and requests by route template', async () => {
    const before = await ctx.app.metrics.registry.metrics();
    await ctx.login('member');
    await expect(ctx.login('member', 'Wrong#Pass9')).rejects.toThrow();
    await ctx.call({ url: '/api/front/page/definition/no-such-page' });
    const text = await ctx.app.metrics.registry.metrics();

    const grew = (name: string, labels: string) => sample(text, name, labels) - sample(before, name, labels);
    expect(grew('portal_logins_total', 'result="success"')).toBe(1);
    expect(grew('portal_logins_total', 'result="failure"')).toBe(1);
    expect(grew('portal_captcha_checks_total', 'kind="image",result="pass"')).toBe(2);
    expect(
      grew(
        'http_server_request_duration_seconds_count',
        'method="GET",route="/api/front/page/definition/:code",status_code="401"',
      ),
    ).toBe(1);
    // A path no route has is one label, not one series per path.
    await ctx.call({ url: '/api/nothing/here/123' });
    await ctx.call({ url: '/api/nothing/else/456' });
    const after = await ctx.app.metrics.registry.metrics();
    expect(
      sample(after, 'http_server_request_duration_seconds_count', 'method="GET",route="unmatched",status_code="404"'),
    ).toBe(2);
    expect(after).not.toContain('/api/nothing');
  });

  it('read the pools, the open streams and the event loop when scraped', async () => {
    const text = await ctx.app.metrics.registry.metrics();
    expect(sample(text, 'portal_db_pool_connections', 'state="total"')).toBeGreaterThan(0);
    expect(text).toMatch(/^portal_db_relaxed_pool_connections\{state="waiting"\} 0$/m);
    expect(text).toMatch(/^portal_event_streams_open 0$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('are served on their own port, and not by the portal', async () => {
    const server = await startMetricsServer(ctx.app.metrics, '127.0.0.1', 0);
    try {
      const base = `http://127.0.0.1:${metricsPort(server)}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(await res.text()).toContain('# TYPE http_server_request_duration_seconds histogram');
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      server.close();
    }
    const portal = await ctx.app.inject({ url: '/metrics' });
    expect(portal.body).not.toContain('http_server_request_duration_seconds');
  });
});

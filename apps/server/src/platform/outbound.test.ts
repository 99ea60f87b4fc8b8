/**
 * The server's one outbound HTTP client and its address rule, against real local listeners: what a
 * refused address receives (nothing), redirects (never followed), the allow-list, names judged on
 * what they resolve to with the connection made to the judged address, deadlines, answer sizes,
 * and the metrics of it all.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, createAddressRule, parseCidrs } from './addresses.js';
import { createMetrics } from './metrics.js';
import { OutboundRefused, OutboundTooLarge, createOutbound, type Resolve } from './outbound.js';

interface Listener {
  server: Server;
  port: number;
  seen: { method: string; url: string; host: string }[];
}

async function listen(handler: (url: string, res: import('node:http').ServerResponse) => void): Promise<Listener> {
  const seen: Listener['seen'] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '' });
    req.resume();
    req.on('end', () => handler(req.url ?? '/', res));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

const ok = (_url: string, res: import('node:http').ServerResponse) => res.writeHead(200).end('fine');

/** The value of one sample line of the exposition text, 0 when absent. */
function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

function client(allowed: string[], resolve?: Resolve) {
  const metrics = createMetrics({ process: false });
  const outbound = createOutbound({ rule: createAddressRule(allowed), metrics, ...(resolve ? { resolve } : {}) });
  return { outbound, metrics };
}

let target: Listener;
let elsewhere: Listener;
beforeAll(async () => {
  elsewhere = await listen(ok);
  target = await listen((url, res) => {
    if (url.startsWith('/redirect')) {
      res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/followed-from${url}` }).end();
    } else if (url.startsWith('/again')) {
      res.writeHead(307, { location: `http://127.0.0.1:${elsewhere.port}/followed-from${url}` }).end();
    } else if (url.startsWith('/silent')) {
      // Never answers: the caller's deadline ends it.
    } else if (url.startsWith('/large')) {
      res.writeHead(200).end('x'.repeat(100_000));
    } else {
      ok(url, res);
    }
  });
});
afterAll(async () => {
  for (const l of [target, elsewhere]) {
    l.server.closeAllConnections();
    await new Promise((done) => l.server.close(done));
  }
});

describe('the address rule', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:10.0.0.5', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'multicast'],
    ['ff02::1', 'multicast'],
    // IPv4 carried to a translator (NAT64, 6to4), IPv4-compatible IPv6, documentation space.
    ['64:ff9b::a00:5', 'reserved'],
    ['2002:a00:5::1', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['93.184.215.14', 'public'],
    ['::ffff:93.184.215.14', 'public'],
    ['2606:4700::6810:84e5', 'public'],
  ])('reads %s as %s', (address, kind) => {
    expect(classify(address)).toBe(kind);
  });

  it('reads every numeric form of a host the URL parser knows, and names for this machine, before DNS', () => {
    const production = createAddressRule([]);
    for (const host of [
      '127.0.0.1',
      '2130706433',
      '0x7f.1',
      '017700000001',
      '127.1',
      '0177.0.0.1',
      '127.0.0.1.',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[0:0:0:0:0:ffff:7f00:1]',
      'localhost',
      'LOCALHOST.',
      'portal.localhost',
      '%31%32%37.0.0.1',
    ]) {
      expect(production.literal(new URL(`http://${host}:8080/x`)), host).toEqual({ ok: false, reason: 'loopback' });
    }
    expect(production.literal(new URL('http://0251.0376.0251.0376/'))).toEqual({ ok: false, reason: 'metadata' });
    expect(production.literal(new URL('http://0/'))).toEqual({ ok: false, reason: 'unspecified' });
    expect(production.literal(new URL('http://erp.example.com/'))).toBeNull();
    expect(production.literal(new URL('http://93.184.215.14/'))).toEqual({ ok: true });
  });

  it('opens what the installation lists, but link-local and metadata addresses only when named', () => {
    const rule = (text: string) => createAddressRule(parseCidrs(text)!);
    expect(rule('10.20.0.0/16').address('10.20.3.4')).toEqual({ ok: true });
    expect(rule('10.20.0.0/16').address('10.21.0.1')).toEqual({ ok: false, reason: 'private' });
    expect(rule('::ffff:10.20.0.0/112').address('::ffff:10.20.3.4')).toEqual({ ok: true });
    expect(rule('fd12::/16').address('fd12::5')).toEqual({ ok: true });
    const everything = rule('0.0.0.0/0,::/0');
    expect(everything.address('10.0.0.5')).toEqual({ ok: true });
    expect(everything.address('169.254.169.254')).toEqual({ ok: false, reason: 'metadata' });
    expect(everything.address('169.254.3.4')).toEqual({ ok: false, reason: 'link_local' });
    expect(everything.address('fd00:ec2::254')).toEqual({ ok: false, reason: 'metadata' });
    expect(rule('100.64.0.0/10').address('100.100.100.200')).toEqual({ ok: false, reason: 'metadata' });
    expect(rule('169.254.0.0/16').address('169.254.3.4')).toEqual({ ok: true });
    expect(rule('169.254.0.0/16').address('169.254.169.254')).toEqual({ ok: false, reason: 'metadata' });
    expect(rule('169.254.169.254').address('169.254.169.254')).toEqual({ ok: true });
  });
});

describe('the outbound client', () => {
  it('sends nothing to a refused address, whatever form it is written in, and counts each refusal', async () => {
    const { outbound, metrics } = client([]);
    const p = target.port;
    const refused = [
      `http://127.0.0.1:${p}/a`,
      `http://2130706433:${p}/b`,
      `http://0x7f.1:${p}/c`,
      `http://017700000001:${p}/d`,
      `http://[::ffff:127.0.0.1]:${p}/e`,
      `http://localhost:${p}/f`,
      `http://[::1]:${p}/g`,
    ];
    try {
      for (const url of refused) {
        await expect(
          outbound.send(url, { purpose: 'sso_logout', method: 'POST', body: 'x', timeoutMs: 2000 }),
          url,
        ).rejects.toBeInstanceOf(OutboundRefused);
      }
      for (const [url, reason] of [
        ['http://10.0.0.5/', 'private'],
        ['http://169.254.169.254/latest/meta-data/', 'metadata'],
        ['http://[fd00:ec2::254]/', 'metadata'],
        ['http://100.64.1.1/', 'cgnat'],
        ['http://[fe80::1]/', 'link_local'],
        ['http://[fc00::1]/', 'unique_local'],
        [`http://0.0.0.0:${p}/`, 'unspecified'],
      ] as const) {
        await expect(outbound.send(url, { purpose: 'sso_logout', timeoutMs: 2000 }), url).rejects.toMatchObject({
          reason,
        });
      }
      expect(target.seen).toEqual([]);
      const text = await metrics.registry.metrics();
      expect(sample(text, 'portal_outbound_refused_total', 'purpose="sso_logout",reason="loopback"')).toBe(7);
      expect(sample(text, 'portal_outbound_refused_total', 'purpose="sso_logout",reason="metadata"')).toBe(2);
      expect(sample(text, 'portal_outbound_requests_total', 'purpose="sso_logout",result="refused"')).toBe(14);
    } finally {
      await outbound.close();
    }
  });

  it('judges a name on every address it resolves to when called, and connects to the address it judged', async () => {
    const lookups: string[] = [];
    const answers: Record<string, string[]> = {
      'intranet.example.test': ['10.0.0.5'],
      'loopback.example.test': ['127.0.0.1'],
      // One public answer beside a refused one: refused (a second connection attempt could take it).
      'mixed.example.test': ['93.184.215.14', '127.0.0.1'],
    };
    let rebindCalls = 0;
    const resolve: Resolve = async (host) => {
      lookups.push(host);
      if (host === 'rebind.example.test') {
        // The first answer is allowed; any later one would be the metadata service.
        return [{ address: rebindCalls++ === 0 ? '127.0.0.1' : '169.254.169.254', family: 4 }];
      }
      const list = answers[host];
      if (!list) throw Object.assign(new Error(`${host} not found`), { code: 'ENOTFOUND' });
      return list.map((address) => ({ address, family: 4 }));
    };
    const production = client([], resolve);
    const listed = client(['127.0.0.1/32'], resolve);
    try {
      for (const host of ['intranet.example.test', 'loopback.example.test', 'mixed.example.test']) {
        await expect(
          production.outbound.send(`http://${host}:${target.port}/name`, { purpose: 'sso_logout', timeoutMs: 2000 }),
          host,
        ).rejects.toBeInstanceOf(OutboundRefused);
      }
      expect(target.seen).toEqual([]);
      const text = await production.metrics.registry.metrics();
      expect(sample(text, 'portal_outbound_refused_total', 'purpose="sso_logout",reason="private"')).toBe(1);
      expect(sample(text, 'portal_outbound_refused_total', 'purpose="sso_logout",reason="loopback"')).toBe(2);

      // Resolved once: the socket goes to the judged 127.0.0.1, never to a second answer.
      const res = await listed.outbound.send(`http://rebind.example.test:${target.port}/pinned`, {
        purpose: 'sso_logout',
        timeoutMs: 2000,
      });
      expect(res.status).toBe(200);
      expect(rebindCalls).toBe(1);
      expect(target.seen).toEqual([{ method: 'GET', url: '/pinned', host: `rebind.example.test:${target.port}` }]);
    } finally {
      target.seen.length = 0;
      await production.outbound.close();
      await listed.outbound.close();
    }
  });

  it('lets a listed range through', async () => {
    const { outbound, metrics } = client(parseCidrs('10.20.0.0/16, 127.0.0.0/8')!);
    try {
      const res = await outbound.send(`http://127.0.0.1:${target.port}/listed`, {
        purpose: 'sso_logout',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'logoutRequest=x',
        timeoutMs: 2000,
      });
      expect(res).toMatchObject({ status: 200, text: 'fine' });
      expect(target.seen).toEqual([{ method: 'POST', url: '/listed', host: `127.0.0.1:${target.port}` }]);
      const text = await metrics.registry.metrics();
      expect(sample(text, 'portal_outbound_requests_total', 'purpose="sso_logout",result="ok"')).toBe(1);
    } finally {
      target.seen.length = 0;
      await outbound.close();
    }
  });

  it('never follows a redirect: the 3xx is the answer', async () => {
    const { outbound, metrics } = client(['127.0.0.0/8']);
    try {
      const found = await outbound.send(`http://127.0.0.1:${target.port}/redirect`, {
        purpose: 'sso_logout',
        method: 'POST',
        body: 'x',
        timeoutMs: 2000,
      });
      expect(found.status).toBe(302);
      const again = await outbound.send(`http://127.0.0.1:${target.port}/again`, {
        purpose: 'sso_logout',
        timeoutMs: 2000,
      });
      expect(again.status).toBe(307);
      expect(target.seen.map((s) => s.url)).toEqual(['/redirect', '/again']);
      expect(elsewhere.seen).toEqual([]);
      const text = await metrics.registry.metrics();
      expect(sample(text, 'portal_outbound_requests_total', 'purpose="sso_logout",result="status"')).toBe(2);
    } finally {
      target.seen.length = 0;
      await outbound.close();
    }
  });

  it('gives up at the deadline and reads no more of an answer than it is told', async () => {
    const { outbound, metrics } = client(['127.0.0.0/8']);
    try {
      const started = Date.now();
      await expect(
        outbound.send(`http://127.0.0.1:${target.port}/silent`, { purpose: 'sms_webhook', timeoutMs: 300 }),
      ).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(2000);
      await expect(
        outbound.send(`http://127.0.0.1:${target.port}/large`, {
          purpose: 'cas_validate',
          timeoutMs: 2000,
          maxResponseBytes: 1024,
        }),
      ).rejects.toBeInstanceOf(OutboundTooLarge);
      const text = await metrics.registry.metrics();
      expect(sample(text, 'portal_outbound_requests_total', 'purpose="sms_webhook",result="failed"')).toBe(1);
      expect(sample(text, 'portal_outbound_requests_total', 'purpose="cas_validate",result="failed"')).toBe(1);
    } finally {
      target.seen.length = 0;
      target.server.closeAllConnections();
      await outbound.close();
    }
  });

  it("sends to the installation's own configured address without judging it", async () => {
    const { outbound } = client([]);
    try {
      const res = await outbound.send(`http://127.0.0.1:${target.port}/configured`, {
        purpose: 'cas_validate',
        timeoutMs: 2000,
        installation: true,
      });
      expect(res.status).toBe(200);
      // Still no redirect followed.
      const moved = await outbound.send(`http://127.0.0.1:${target.port}/redirect`, {
        purpose: 'cas_validate',
        timeoutMs: 2000,
        installation: true,
      });
      expect(moved.status).toBe(302);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      target.seen.length = 0;
      await outbound.close();
    }
  });
});

/**
 * `npm run devices:simulate`: the demo park's devices, reporting. Reads the credentials the demo
 * seed wrote (`DATA_DIR/demo-devices.json`, or `DEVICES_FILE`) and posts each device's readings to
 * the portal's ingest API (`PORTAL_URL`, default http://localhost:8080) every `SIMULATE_INTERVAL_MS`
 * (5,000): every value wanders a little from the last, counters only grow, and now and then a device
 * raises a warning. Stops on Ctrl+C. A park's own devices use the same API with credentials an
 * operator made (docs/api.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface SimulatedDevice {
  code: string;
  name: string;
  nameEn: string;
  token: string;
  latest: Record<string, number>;
}

const file = process.env.DEVICES_FILE ?? join(process.env.DATA_DIR ?? './data', 'demo-devices.json');
const portal = (process.env.PORTAL_URL ?? `http://localhost:${process.env.PORT ?? 8080}`).replace(/\/$/, '');
const intervalMs = Number(process.env.SIMULATE_INTERVAL_MS ?? 5000);
/** Metrics that count up (energy used, people through a gate) rather than wander. */
const COUNTERS = /(_kwh|_m3|passes_today)$/;

let devices: SimulatedDevice[];
try {
  devices = (JSON.parse(readFileSync(file, 'utf8')) as { devices: SimulatedDevice[] }).devices;
} catch {
  console.error(
    `No device credentials in ${file}. The demo writes them when it first seeds its devices (npm start, ` +
      'SEED_DEMO=1); for other devices, make credentials through POST /api/admin/devices/:id/credentials ' +
      'and list them in a file of the same shape (DEVICES_FILE).',
  );
  process.exit(1);
}

const round = (n: number) => Math.round(n * 10) / 10;

function nextValue(metric: string, last: number): number {
  if (COUNTERS.test(metric)) return round(last + Math.random() * 3);
  if (metric === 'floor') return Math.max(1, Math.min(20, Math.round(last + (Math.random() - 0.5) * 4)));
  // A wander of up to ±3 %, never below zero.
  return Math.max(0, round(last * (1 + (Math.random() - 0.5) * 0.06)));
}

async function report(d: SimulatedDevice): Promise<string | null> {
  const readings = Object.entries(d.latest).map(([metric, last]) => {
    d.latest[metric] = nextValue(metric, last);
    return { metric, value: d.latest[metric]! };
  });
  const alerts =
    Math.random() < 0.01
      ? [{ severity: 'warning', message: `${d.name}读数波动异常`, messageEn: `${d.nameEn}: unusual readings` }]
      : [];
  const res = await fetch(`${portal}/api/ingest/v1/readings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${d.token}` },
    body: JSON.stringify({ readings, alerts }),
  });
  if (res.ok) return null;
  const body = (await res.json().catch(() => null)) as { message?: string } | null;
  return `${d.code}: HTTP ${res.status} ${body?.message ?? ''}`.trim();
}

let posts = 0;
let stopped = false;
process.on('SIGINT', () => (stopped = true));
process.on('SIGTERM', () => (stopped = true));
console.log(`Simulating ${devices.length} devices against ${portal} every ${intervalMs} ms (Ctrl+C stops).`);
while (!stopped) {
  const failures = (
    await Promise.all(devices.map((d) => report(d).catch((e: Error) => `${d.code}: ${e.message}`)))
  ).filter((f): f is string => f !== null);
  posts += devices.length - failures.length;
  for (const f of failures) console.warn(f);
  if (posts % (devices.length * 12) === 0) console.log(`${posts} posts so far`);
  await new Promise((r) => setTimeout(r, intervalMs));
}
console.log(`Stopped after ${posts} posts.`);

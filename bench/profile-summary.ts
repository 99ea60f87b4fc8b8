/**
 * Summarises a V8 CPU profile (.cpuprofile, e.g. from `BENCH_CPU_PROF=1 npm run bench -w bench`):
 * self time by function and by where the code lives, and inclusive time of chosen frames.
 *
 *   npx tsx bench/profile-summary.ts bench/results/cpu-prof/<file>.cpuprofile [top=40] [filter-regexp]
 *
 * LAST_SECONDS=12 keeps only the samples of the profile's last 12 s (e.g. the final bench phase).
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg, filterArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top] [filter-regexp]\n');
  process.exit(2);
}
const top = Number(topArg ?? 40);
const filter = filterArg ? new RegExp(filterArg) : null;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// sample times (µs since the profile started); optionally keep only the last LAST_SECONDS
const at: number[] = [];
let clock = 0;
for (const d of profile.timeDeltas) at.push((clock += d));
const lastSeconds = Number(process.env.LAST_SECONDS ?? 0);
const from = lastSeconds > 0 ? clock - lastSeconds * 1e6 : -Infinity;
const kept = (i: number) => at[i]! >= from;

// self time per node, in ms
const self = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  if (!kept(i)) continue;
  const id = profile.samples[i]!;
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
}
const totalMs = [...self.values()].reduce((a, b) => a + b, 0);

function where(cf: CallFrame): string {
  const url = cf.url;
  if (!url) return cf.functionName.startsWith('(') ? cf.functionName : '(native/V8)';
  if (url.startsWith('node:')) return 'node core';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.includes('/apps/server/dist/')) return 'portal: ' + url.slice(url.indexOf('/apps/server/dist/') + 18);
  if (url.includes('/packages/contracts/')) return '@portal/contracts';
  return url;
}

const label = (cf: CallFrame) => `${cf.functionName || '(anonymous)'} ${where(cf)}:${cf.lineNumber + 1}`;

function table(title: string, m: Map<string, number>, n = top) {
  process.stdout.write(`\n${title}\n`);
  for (const [k, v] of [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    process.stdout.write(`${v.toFixed(0).padStart(8)} ms ${((100 * v) / totalMs).toFixed(1).padStart(5)} %  ${k}\n`);
  }
}

const selfByFn = new Map<string, number>();
const selfByWhere = new Map<string, number>();
for (const [id, ms] of self) {
  const cf = byId.get(id)!.callFrame;
  selfByFn.set(label(cf), (selfByFn.get(label(cf)) ?? 0) + ms);
  selfByWhere.set(where(cf), (selfByWhere.get(where(cf)) ?? 0) + ms);
}

// inclusive time per function label (counted once per sample even under recursion)
const inclusive = new Map<string, number>();
for (let i = 0; i < profile.samples.length; i++) {
  if (!kept(i)) continue;
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  const seen = new Set<string>();
  for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
    const l = label(byId.get(id)!.callFrame);
    if (!seen.has(l)) {
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + ms);
    }
  }
}

process.stdout.write(`${file}: ${(totalMs / 1000).toFixed(1)} s sampled\n`);
table('Self time by package / location', selfByWhere, 30);
table('Self time by function', selfByFn);
const incl = new Map([...inclusive].filter(([k]) => (filter ? filter.test(k) : !k.startsWith('(root)'))));
table(`Inclusive time${filter ? ` (matching ${filter})` : ''}`, incl);

/**
 * CPU accounting from /proc (is anything else using the machine?): the shares of the bench, the
 * portal, PostgreSQL and other processes over a measured run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { round } from '../common.js';

export interface CpuSplit {
  /** Shares of the whole machine (100 % = every core busy) over the measured run. */
  machineBusyPct: number;
  benchPct: number;
  serverPct: number;
  postgresPct: number;
  /** Busy time of processes outside this benchmark: other work on the machine distorts the numbers. */
  foreignPct: number;
}

function machineJiffies(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const v = line.trim().split(/\s+/).slice(1, 9).map(Number); // user nice system idle iowait irq softirq steal
    const total = v.reduce((a, b) => a + b, 0);
    return { busy: total - v[3]! - v[4]!, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/**
 * utime+stime of this process and its descendants, by group. A descendant's count includes its
 * reaped children (cutime+cstime): PostgreSQL backends end during a run (a pool's idle connection
 * closes, an autovacuum worker finishes), and without the time the postmaster reaped from them,
 * the PostgreSQL share would fall by all the CPU such a backend ever used (and show as negative).
 */
function treeJiffies(): { bench: number; server: number; postgres: number } {
  const procs: Array<{ pid: number; ppid: number; comm: string; cpu: number; reaped: number }> = [];
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        const comm = stat.slice(stat.indexOf('(') + 1, close);
        const f = stat.slice(close + 2).split(' ');
        procs.push({
          pid: Number(name),
          ppid: Number(f[1]),
          comm,
          cpu: Number(f[11]) + Number(f[12]),
          reaped: Number(f[13]) + Number(f[14]),
        });
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return { bench: 0, server: 0, postgres: 0 };
  }
  const children = new Map<number, typeof procs>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out = { bench: 0, server: 0, postgres: 0 };
  const self = procs.find((p) => p.pid === process.pid);
  if (self) out.bench += self.cpu;
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      if (c.comm.startsWith('postgres')) out.postgres += c.cpu + c.reaped;
      else out.server += c.cpu + c.reaped;
      walk(c.pid);
    }
  };
  walk(process.pid);
  return out;
}

export function cpuMeter(): () => CpuSplit {
  const m0 = machineJiffies();
  const t0 = treeJiffies();
  return () => {
    const m1 = machineJiffies();
    const t1 = treeJiffies();
    const total = Math.max(1, m1.total - m0.total);
    const pct = (n: number) => round((100 * n) / total, 1);
    const bench = t1.bench - t0.bench;
    const server = t1.server - t0.server;
    const postgres = t1.postgres - t0.postgres;
    const busy = m1.busy - m0.busy;
    return {
      machineBusyPct: pct(busy),
      benchPct: pct(bench),
      serverPct: pct(server),
      postgresPct: pct(postgres),
      foreignPct: pct(Math.max(0, busy - bench - server - postgres)),
    };
  };
}

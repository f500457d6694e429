/**
 * Per-process figures of the benches that sample every few seconds (./soak.ts, ./capacity.ts):
 * each process's RSS, and its CPU as % of one core since the sample before (from the second
 * sample of that process on), as series points and as the parts of a plain line. A name may stand
 * for a group of processes (a sharded controller: the parent and its shard children), whose RSS
 * and CPU are the group's sums.
 */
import { readFileSync } from 'node:fs';
import { cpuSeconds } from './controller-load.js';
import { fixed, shortName } from './lines.js';
import { rssMiB } from './scale-out.js';

export interface ProcessFigures {
  /** `apiserver 412`, … for the line's RSS MiB part. */
  rss: string[];
  /** The same for CPU %; empty at a first sample. */
  cpu: string[];
  rssMiB: Record<string, number>;
}

/** `pid` and the processes it started, as /proc lists them now (Linux); only `pid` when that cannot be read. */
export function withChildren(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(children ? children.split(/\s+/).map(Number) : [])];
  } catch {
    return [pid];
  }
}

/** utime+stime of a group of processes, in seconds. */
export function groupCpuSeconds(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
}

export class ProcessSampler {
  private readonly previous = new Map<string, { t: number; cpu: number; pids: string }>();

  /** Samples `pids` at `t` seconds; `record` gets every figure as a point of "RSS MiB <name>" or "CPU % <name>". */
  sample(pids: Readonly<Record<string, number | readonly number[]>>, t: number, record: (series: string, value: number) => void): ProcessFigures {
    const figures: ProcessFigures = { rss: [], cpu: [], rssMiB: {} };
    for (const [name, entry] of Object.entries(pids)) {
      const group = typeof entry === 'number' ? [entry] : entry;
      const mib = group.reduce((sum, pid) => sum + rssMiB(pid), 0);
      figures.rssMiB[name] = mib;
      record(`RSS MiB ${name}`, mib);
      figures.rss.push(`${shortName(name)} ${fixed(mib)}`);
      const used = groupCpuSeconds(group);
      const members = group.join(',');
      const before = this.previous.get(name);
      // A group whose members changed (a shard restarted) has no CPU since the last sample to show.
      if (before && t > before.t && before.pids === members) {
        const percent = (100 * (used - before.cpu)) / (t - before.t);
        record(`CPU % ${name}`, percent);
        figures.cpu.push(`${shortName(name)} ${fixed(percent)}`);
      }
      this.previous.set(name, { t, cpu: used, pids: members });
    }
    return figures;
  }
}

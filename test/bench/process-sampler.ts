/**
 * Per-process figures of the benches that sample every few seconds (./soak.ts, ./capacity.ts):
 * each process's RSS, and its CPU as % of one core since the sample before (from the second
 * sample of that process on), as series points and as the parts of a plain line.
 */
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

export class ProcessSampler {
  private readonly previous = new Map<string, { t: number; cpu: number }>();

  /** Samples `pids` at `t` seconds; `record` gets every figure as a point of "RSS MiB <name>" or "CPU % <name>". */
  sample(pids: Readonly<Record<string, number>>, t: number, record: (series: string, value: number) => void): ProcessFigures {
    const figures: ProcessFigures = { rss: [], cpu: [], rssMiB: {} };
    for (const [name, pid] of Object.entries(pids)) {
      const mib = rssMiB(pid);
      figures.rssMiB[name] = mib;
      record(`RSS MiB ${name}`, mib);
      figures.rss.push(`${shortName(name)} ${fixed(mib)}`);
      const used = cpuSeconds(pid);
      const before = this.previous.get(name);
      if (before && t > before.t) {
        const percent = (100 * (used - before.cpu)) / (t - before.t);
        record(`CPU % ${name}`, percent);
        figures.cpu.push(`${shortName(name)} ${fixed(percent)}`);
      }
      this.previous.set(name, { t, cpu: used });
    }
    return figures;
  }
}

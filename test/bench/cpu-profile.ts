/**
 * Where a controller's CPU went, from the V8 CPU profile(s) Node writes with --cpu-prof: each
 * sample's self time put in one of a few parts (the kube client, the controllers and stages, JSON,
 * Node's sockets and TLS, the garbage collector, ...), as shares of the sampled CPU (idle time is
 * not CPU and is left out). A bundled file is mapped back to its modules by the `// src/…` and
 * `// node_modules/…` lines esbuild writes before each module's code.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The parts of a V8 .cpuprofile this reads. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  part: string;
  ms: number;
  /** Of the sampled CPU, 0–1. */
  share: number;
}

/** Which module each line of a bundled file belongs to: [first line (0-based), module path], in order. */
export function bundleModules(text: string): Array<[number, string]> {
  const starts: Array<[number, string]> = [];
  text.split('\n').forEach((line, i) => {
    const m = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(line);
    if (m) starts.push([i, m[1]!]);
  });
  return starts;
}

/** The module at `line` of a file whose module starts are `starts`, or undefined before the first. */
export function moduleAt(starts: ReadonlyArray<[number, string]>, line: number): string | undefined {
  let lo = 0;
  let hi = starts.length - 1;
  let found: string | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]![0] <= line) {
      found = starts[mid]![1];
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

const IO = 'Node: sockets, TLS, HTTP, streams, buffers';

/** The part a frame's self time counts to, from its function, its file and (in a bundle) its module. */
export function partOf(functionName: string, url: string, module: string | undefined): string | undefined {
  if (functionName === '(idle)') return undefined;
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(program)') return 'V8 and Node outside JavaScript';
  if (url === '' && /^(parse|stringify|JSONParse|JSONStringify)$/.test(functionName)) return 'JSON parse and stringify';
  // Buffers' native string encoding and decoding: what socket reads and writes cost.
  if (url === '' && /^(write|)(Utf8|Latin1|Ascii|Ucs2|Hex|Base64)(String|Slice|Write)$|^(utf8|latin1|ascii|ucs2|hex|base64)(Slice|Write)$/i.test(functionName)) return IO;
  if (/^(compileSourceTextModule|compileForInternalLoader|compileForPublicLoader|compileFunction|wrapSafe)$/.test(functionName)) return 'loading and compiling modules';
  if (url.startsWith('node:')) {
    const name = url.replace(/^node:(internal\/)?/, '');
    return /^(net|tls|_tls_|https?|_http_|streams?\/|stream$|dns|crypto|js_stream_socket|stream_base_commons|buffer)/.test(name) ? IO : 'Node: other';
  }
  const path = module ?? (url.startsWith('file:') ? fileURLToPath(url) : url);
  if (/(^|\/)src\/kube\//.test(path)) return 'kube client (requests, watches, decoding)';
  if (/(^|\/)src\/kwok\//.test(path)) return 'controllers, stages, leases';
  if (/(^|\/)src\//.test(path)) return 'other kwokts code';
  const pkg = /(^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[2];
  if (pkg) return `library: ${pkg}`;
  return url === '' ? 'V8 builtins' : 'other';
}

/** Self time per part over `profiles`, largest first; files are read for their module map. */
export function summarizeProfiles(profiles: readonly CpuProfile[], readText: (url: string) => string | undefined = readBundle): ProfileShare[] {
  const maps = new Map<string, Array<[number, string]>>();
  const modulesOf = (url: string): Array<[number, string]> => {
    let starts = maps.get(url);
    if (!starts) {
      const text = url.startsWith('file:') ? readText(url) : undefined;
      starts = text === undefined ? [] : bundleModules(text);
      maps.set(url, starts);
    }
    return starts;
  };
  const totals = new Map<string, number>();
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    profile.samples.forEach((id, i) => {
      const frame = byId.get(id);
      if (!frame) return;
      const part = partOf(frame.functionName, frame.url, moduleAt(modulesOf(frame.url), frame.lineNumber));
      if (part !== undefined) totals.set(part, (totals.get(part) ?? 0) + (profile.timeDeltas[i] ?? 0));
    });
  }
  const all = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...totals.entries()].map(([part, us]) => ({ part, ms: us / 1000, share: all > 0 ? us / all : 0 })).sort((a, b) => b.ms - a.ms);
}

function readBundle(url: string): string | undefined {
  try {
    return readFileSync(fileURLToPath(url), 'utf8');
  } catch {
    return undefined;
  }
}

/** "kube client 31 %, JSON 18 %, …" for the parts with at least `min` of the CPU, the rest together. */
export function profileLine(shares: readonly ProfileShare[], min = 0.02): string {
  const shown = shares.filter((s) => s.share >= min);
  const rest = shares.filter((s) => s.share < min).reduce((sum, s) => sum + s.share, 0);
  const cpuS = shares.reduce((sum, s) => sum + s.ms, 0) / 1000;
  const parts = shown.map((s) => `${s.part} ${(s.share * 100).toFixed(0)} %`);
  if (rest > 0) parts.push(`the rest ${(rest * 100).toFixed(0)} %`);
  // V8 samples the JavaScript thread only: GC helpers and the compiler's threads are not in it.
  return `${parts.join(', ')} (of ${cpuS.toFixed(1)} s sampled on the main thread)`;
}

import { existsSync, readFileSync } from 'node:fs';
import { arch, platform, release } from 'node:os';
import { join } from 'node:path';
import { CLUSTER_LIST_FORMATS, type ClusterListFormat } from '../cluster/cluster-list-format.js';
import { validateClusterName, DEFAULT_CLUSTER_NAME } from '../naming/naming.js';
import { parseLogLevel } from '../util/log.js';
import { packageRoot } from '../util/package-root.js';
export { exitWhenFlushed } from './exit.js';
import { DELETE_CLUSTER_FLAGS, GET_CLUSTERS_FLAGS, GLOBAL_FLAG_SHAPES, GLOBAL_FLAGS, SNAPSHOT_RESTORE_FLAGS } from './command-flags.js';
import { flagShapes } from './flag-decl.js';
import { flagTokenCount, normalizeFlags, type FlagShape } from './pflag.js';

/**
 * The commands scripts call over and over (`--version`, `get clusters`, `kubectl ...`,
 * `etcdctl ...`, `kectl ...`, `delete cluster`, `snapshot restore` of an etcd snapshot) run here without loading oclif and the command
 * modules, which costs several hundred milliseconds a call. Only plain, valid invocations take this path: for
 * anything else (help, a flag we would have to reject, an unknown word) it answers `undefined`
 * and the oclif path runs, so messages, help and exit codes stay oclif's and BaseCommand's.
 */
export type FastCommand =
  | { kind: 'version' }
  | { kind: 'get-clusters'; globals: Globals; output: ClusterListFormat }
  | { kind: 'passthrough'; tool: PassthroughTool; globals: Globals; toolArgs: string[] }
  | { kind: 'delete-cluster'; globals: Globals; kubeconfig: string | undefined; force: boolean }
  | { kind: 'snapshot-restore'; globals: Globals; path: string }
  /** A candidate only: create-cluster-fast.ts reads its flags, and may still leave it to oclif. */
  | { kind: 'create-cluster'; tokens: string[] };

export type PassthroughTool = 'kubectl' | 'etcdctl' | 'kectl';

export interface Globals {
  name: string;
  logLevel: number;
}

const PASSTHROUGH = new Set<string>(['kubectl', 'etcdctl', 'kectl']);
const HELP = new Set(['--help', '-h']);
// Each command's flags as its oclif command declares them (command-flags.ts), the global ones included.
const GET_CLUSTERS_SHAPES = flagShapes({ ...GLOBAL_FLAGS, ...GET_CLUSTERS_FLAGS });
export const DELETE_CLUSTER_SHAPES = flagShapes({ ...GLOBAL_FLAGS, ...DELETE_CLUSTER_FLAGS });
export const SNAPSHOT_RESTORE_SHAPES = flagShapes({ ...GLOBAL_FLAGS, ...SNAPSHOT_RESTORE_FLAGS });

/** Which fast command `argv` is, or undefined when the oclif path must handle it. */
export function classifyFast(argv: readonly string[]): FastCommand | undefined {
  // oclif prints its version for `--version` first, whatever follows.
  if (argv[0] === '--version') return { kind: 'version' };
  const words: string[] = [];
  const leading: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const token = argv[i]!;
    if (token === '--' || HELP.has(token)) return undefined;
    if (token.startsWith('-') && token !== '-') {
      const count = flagTokenCount(argv, i, GLOBAL_FLAG_SHAPES);
      if (count === undefined || i + count > argv.length) return undefined;
      leading.push(...argv.slice(i, i + count));
      i += count;
      continue;
    }
    words.push(token);
    i += 1;
    if (words.length === 1 && PASSTHROUGH.has(token)) {
      const globals = readGlobals(leading, GLOBAL_FLAG_SHAPES);
      return globals && { kind: 'passthrough', tool: token as PassthroughTool, globals: globals.globals, toolArgs: argv.slice(i) };
    }
    if (words.join(' ') === 'get clusters') {
      const rest = argv.slice(i);
      if (rest.some((t) => HELP.has(t))) return undefined;
      const read = readGlobals([...leading, ...rest], GET_CLUSTERS_SHAPES);
      if (!read) return undefined;
      const output = read.values.get('output') ?? 'name';
      if (!(CLUSTER_LIST_FORMATS as readonly string[]).includes(output)) return undefined;
      return { kind: 'get-clusters', globals: read.globals, output: output as ClusterListFormat };
    }
    if (words.join(' ') === 'delete cluster') return classifyDelete([...leading, ...argv.slice(i)]);
    if (words.join(' ') === 'snapshot restore') return classifyRestore([...leading, ...argv.slice(i)]);
    if (words.join(' ') === 'create cluster') {
      const tokens = [...leading, ...argv.slice(i)];
      // Help and `--` are oclif's, without loading the create code first.
      return tokens.some((t) => t === '--' || HELP.has(t)) ? undefined : { kind: 'create-cluster', tokens };
    }
    if (!['get', 'delete', 'snapshot', 'create'].includes(words.join(' '))) return undefined;
  }
  return undefined;
}

/**
 * The global flags as BaseCommand would read them (pflag's grammar, the last value wins), or
 * undefined when oclif would have something to say: a positional, a bad value, an empty value.
 */
function readGlobals(tokens: readonly string[], shapes: Readonly<Record<string, FlagShape>>): { globals: Globals; values: Map<string, string> } | undefined {
  let normalized: string[];
  try {
    normalized = normalizeFlags(tokens, shapes).argv;
  } catch {
    return undefined;
  }
  const values = new Map<string, string>();
  for (const token of normalized) {
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(token);
    if (!match) return undefined;
    const [, key, value] = match;
    if (value === undefined) continue;
    if (value === '') return undefined;
    values.set(key!, value);
  }
  const name = values.get('name') ?? DEFAULT_CLUSTER_NAME;
  const logLevel = parseLogLevel(values.get('v') ?? 'INFO');
  if (logLevel === undefined) return undefined;
  try {
    validateClusterName(name);
  } catch {
    return undefined;
  }
  return { globals: { name, logLevel }, values };
}

/**
 * `delete cluster` of one named cluster, as the command would read its flags; undefined (oclif)
 * for --all, --dry-run, -c, a positional, help or anything pflag would reject.
 */
function classifyDelete(tokens: readonly string[]): FastCommand | undefined {
  if (tokens.some((t) => t === '--' || HELP.has(t))) return undefined;
  let normalized: { argv: string[]; falseBooleans: string[] };
  try {
    normalized = normalizeFlags(tokens, DELETE_CLUSTER_SHAPES);
  } catch {
    return undefined;
  }
  let kubeconfig: string | undefined;
  let force = false;
  const globals: string[] = [];
  for (const token of normalized.argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(token);
    if (!match) return undefined;
    const [, key, value] = match;
    if (key === 'kubeconfig') kubeconfig = value;
    else if (key === 'force') force = true;
    else if (key === 'name' || key === 'v') globals.push(token);
    else return undefined;
  }
  const read = readGlobals(globals, GLOBAL_FLAG_SHAPES);
  return read && { kind: 'delete-cluster', globals: read.globals, kubeconfig, force };
}

/**
 * `snapshot restore --path P [--format etcd]`, as the command would read its flags; undefined
 * (oclif) for the k8s format, --filter, --replay, --dry-run, -c, a positional, no or an empty
 * --path, help or anything pflag would reject.
 */
function classifyRestore(tokens: readonly string[]): FastCommand | undefined {
  if (tokens.some((t) => t === '--' || HELP.has(t))) return undefined;
  let normalized: { argv: string[]; falseBooleans: string[] };
  try {
    normalized = normalizeFlags(tokens, SNAPSHOT_RESTORE_SHAPES);
  } catch {
    return undefined;
  }
  let path: string | undefined;
  let format: string = SNAPSHOT_RESTORE_FLAGS.format.default;
  const globals: string[] = [];
  for (const token of normalized.argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(token);
    if (!match) return undefined;
    const [, key, value] = match;
    if (key === 'path') path = value;
    else if (key === 'format' && value !== undefined) format = value;
    else if (key === 'name' || key === 'v') globals.push(token);
    else return undefined;
  }
  if (!path || format !== 'etcd') return undefined;
  const read = readGlobals(globals, GLOBAL_FLAG_SHAPES);
  return read && { kind: 'snapshot-restore', globals: read.globals, path };
}

/** Run `argv` on the fast path and return its exit code, or undefined when it is not for the fast path. */
export async function runFast(argv: readonly string[]): Promise<number | undefined> {
  const command = classifyFast(argv);
  if (!command) return undefined;
  if (command.kind === 'create-cluster') {
    // Loaded only now (the create code is most of what the fast path has); it decides whether
    // the flags are for the fast path before anything is printed.
    const create = await import('./create-cluster-fast.js');
    const flags = create.readCreateClusterFlags(command.tokens);
    if (!flags) return undefined;
    prepareOutput();
    return create.runCreateClusterFast(flags);
  }
  prepareOutput();
  if (command.kind === 'version') {
    process.stdout.write(userAgent() + '\n');
    return 0;
  }
  // Loaded only now, so that --version reads no more than this file; each command's own module,
  // so that the bundle can make the hot ones a file each (scripts/bundle.mjs, LEAN_ENTRIES).
  switch (command.kind) {
    case 'delete-cluster':
      return (await import('./fast-delete.js')).runFastDelete(command);
    case 'get-clusters':
      return (await import('./fast-get-clusters.js')).runFastGetClusters(command);
    case 'passthrough':
      return (await import('./fast-passthrough.js')).runFastPassthrough(command);
    case 'snapshot-restore':
      return (await import('./fast-restore.js')).runFastRestore(command);
  }
}

function prepareOutput(): void {
  warnIfCwdIsGone();
  // As oclif does: a reader that goes away (`| head`) is no error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/** oclif's `--version` line: `kwokts/0.1.0 linux-x64 node-v22.0.0`. */
export function userAgent(): string {
  const pjson = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { name: string; version: string };
  const cpu = arch() === 'ia32' ? 'x86' : arch();
  return `${pjson.name}/${pjson.version} ${isWsl() ? 'wsl' : platform()}-${cpu} node-${process.version}`;
}

/** As oclif (through wsl-utils) tells WSL from Linux: a Microsoft kernel, outside a container. */
function isWsl(): boolean {
  if (process.platform !== 'linux') return false;
  let microsoft = release().toLowerCase().includes('microsoft');
  if (!microsoft) {
    try {
      microsoft = readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft');
    } catch {
      return false;
    }
  }
  return microsoft && !existsSync('/.dockerenv') && !existsSync('/run/.containerenv');
}

function warnIfCwdIsGone(): void {
  try {
    process.cwd();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') process.stderr.write('WARNING: current directory does not exist\n');
  }
}


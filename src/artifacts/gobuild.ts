/**
 * The offline path: compile the exact Kubernetes / etcd release from its Go modules (the module
 * proxy is reachable where release downloads are not).
 *
 * `go install pkg@version` refuses modules whose go.mod has replace directives, and both projects
 * replace their sibling modules with relative paths. So we write a throwaway module that requires
 * the release and pins every sibling named in upstream's replace block to its published version
 * (`k8s.io/X => k8s.io/X v0.<minor>.<patch>`, `go.etcd.io/etcd/X/v3 => … v3.6.10`), `go get` the
 * commands, and run ONE `go build` for all of them (they share most compile work). Go's module and
 * build caches are kwokts's own, under the cache directory (goCacheEnv), so that `artifacts prune`
 * can free what kwokts filled without touching the user's own Go caches.
 *
 * The pure half (go.mod parsing and rendering, ldflags, the build plan) is exported for tests and
 * for dry-run; `buildFromGoModules` does the work.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile, open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { normalizeVersion } from '../config/versions.js';
import { PreflightError } from '../util/errors.js';
import { commandFailed, KEPT_OUTPUT_LINES } from '../util/output-tail.js';
import { silentLogger, type Logger } from '../util/log.js';
import { removeStaleTemps, withFileLock, type DownloadTuning } from './download.js';
import type { GoBuildPhase, ProgressCallback } from './progress.js';
import { binariesOfKind, goBuildDir, type BuildableName, type GoBuildKind } from './sources.js';
import { loadExeca } from '../exec/load-execa.js';

// ---------------------------------------------------------------------------------------------
// go.mod parsing and rendering (pure)

export interface GoModRequire {
  path: string;
  version: string;
  indirect: boolean;
}

export interface GoModReplace {
  oldPath: string;
  oldVersion?: string;
  newPath: string;
  /** Undefined when the replacement is a local directory. */
  newVersion?: string;
}

export interface GoModFile {
  module?: string;
  go?: string;
  toolchain?: string;
  requires: GoModRequire[];
  replaces: GoModReplace[];
}

function unquote(token: string): string {
  if (token.startsWith('"') && token.endsWith('"') && token.length >= 2) return JSON.parse(token) as string;
  if (token.startsWith('`') && token.endsWith('`') && token.length >= 2) return token.slice(1, -1);
  return token;
}

function tokenize(line: string): string[] {
  return (line.match(/"(?:[^"\\]|\\.)*"|`[^`]*`|\S+/g) ?? []).map(unquote);
}

/** Parses the directives we need (module, go, toolchain, require, replace) from a go.mod file. */
export function parseGoMod(text: string): GoModFile {
  const mod: GoModFile = { requires: [], replaces: [] };
  let block: string | undefined;
  const handle = (verb: string, args: string[], comment: string): void => {
    switch (verb) {
      case 'module':
        if (args[0]) mod.module = args[0];
        break;
      case 'go':
        if (args[0]) mod.go = args[0];
        break;
      case 'toolchain':
        if (args[0]) mod.toolchain = args[0];
        break;
      case 'require':
        if (args.length >= 2) mod.requires.push({ path: args[0]!, version: args[1]!, indirect: /\bindirect\b/.test(comment) });
        break;
      case 'replace': {
        const arrow = args.indexOf('=>');
        if (arrow < 1 || arrow > 2 || args.length <= arrow + 1) break;
        const r: GoModReplace = { oldPath: args[0]!, newPath: args[arrow + 1]! };
        if (arrow === 2) r.oldVersion = args[1]!;
        if (args[arrow + 2] !== undefined) r.newVersion = args[arrow + 2]!;
        mod.replaces.push(r);
        break;
      }
      default:
        break;
    }
  };
  for (const rawLine of text.split(/\r?\n/)) {
    const commentAt = rawLine.indexOf('//');
    const comment = commentAt >= 0 ? rawLine.slice(commentAt + 2) : '';
    const line = (commentAt >= 0 ? rawLine.slice(0, commentAt) : rawLine).trim();
    if (line === '') continue;
    if (block !== undefined) {
      if (line === ')') block = undefined;
      else handle(block, tokenize(line), comment);
      continue;
    }
    const tokens = tokenize(line);
    const verb = tokens[0]!;
    if (tokens[1] === '(' && tokens.length === 2) {
      block = verb;
      continue;
    }
    handle(verb, tokens.slice(1), comment);
  }
  return mod;
}

/** True for a replacement that points at a directory (`./x`, `../x`, `/abs`), not a module version. */
export function isLocalReplacement(r: GoModReplace): boolean {
  return r.newVersion === undefined && /^(\.{1,2}[/\\]|\/|[A-Za-z]:[/\\])/.test(r.newPath);
}

/**
 * The sibling modules an upstream go.mod replaces with local directories, restricted to `prefix`
 * (e.g. `k8s.io/`). Markers such as etcd's `=> ./FORBIDDEN_DEPENDENCY` (which exist to make a
 * dependency fail) are not modules and are skipped.
 */
export function localSiblings(mod: GoModFile, prefix: string): string[] {
  return mod.replaces
    .filter((r) => isLocalReplacement(r) && r.oldVersion === undefined && r.oldPath.startsWith(prefix))
    .filter((r) => !/FORBIDDEN/i.test(path.posix.basename(r.newPath)))
    .map((r) => r.oldPath);
}

/** Kubernetes publishes its staging modules as v0.<minor>.<patch>: v1.36.1 → v0.36.1. */
export function stagingVersion(kubeVersion: string): string {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(.*)$/.exec(kubeVersion.trim());
  if (!m) throw new PreflightError(`cannot derive staging module versions from Kubernetes version ${kubeVersion}`, { hint: 'use a release version such as v1.36.1' });
  return `v0.${m[2]}.${m[3]}${m[4]}`;
}

function compareGoVersions(a: string, b: string): number {
  const pa = a.split(/[.]/).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split(/[.]/).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export interface WrapperGoModSpec {
  module: string;
  go?: string;
  requires: ReadonlyArray<{ path: string; version: string }>;
  /** Each `path => path version`. */
  pins: ReadonlyArray<{ path: string; version: string }>;
}

/** Renders the throwaway go.mod in gofmt style (tab-indented blocks). */
export function renderWrapperGoMod(spec: WrapperGoModSpec): string {
  const out: string[] = [`module ${spec.module}`, ''];
  if (spec.go) out.push(`go ${spec.go}`, '');
  if (spec.requires.length === 1) {
    out.push(`require ${spec.requires[0]!.path} ${spec.requires[0]!.version}`, '');
  } else if (spec.requires.length > 1) {
    out.push('require (', ...spec.requires.map((r) => `\t${r.path} ${r.version}`), ')', '');
  }
  if (spec.pins.length > 0) {
    out.push('replace (', ...spec.pins.map((p) => `\t${p.path} => ${p.path} ${p.version}`), ')', '');
  }
  return out.join('\n');
}

export const KUBERNETES_MODULE = 'k8s.io/kubernetes';
export const ETCD_MODULES = ['go.etcd.io/etcd/server/v3', 'go.etcd.io/etcd/etcdctl/v3', 'go.etcd.io/etcd/etcdutl/v3'] as const;
export const CLUSTER_AUTOSCALER_MODULE = 'sigs.k8s.io/cluster-autoscaler';
/** The main package of cluster-autoscaler's kwok-only build (it imports just the kwok cloud provider). */
export const CLUSTER_AUTOSCALER_KWOK_PACKAGE = `${CLUSTER_AUTOSCALER_MODULE}/kwok`;
export const METRICS_SERVER_MODULE = 'sigs.k8s.io/metrics-server';
export const JAEGER_MODULE = 'github.com/jaegertracing/jaeger';
/** The main package of each single-binary add-on, and a flag its --help must name (proof the binary works). */
const ADDON_BUILDS: Record<'metrics-server' | 'jaeger', { module: string; pkg: string; helpText: string }> = {
  'metrics-server': { module: METRICS_SERVER_MODULE, pkg: `${METRICS_SERVER_MODULE}/cmd/metrics-server`, helpText: 'v' },
  jaeger: { module: JAEGER_MODULE, pkg: `${JAEGER_MODULE}/cmd/all-in-one`, helpText: '--collector.otlp' },
};
export const COREDNS_MODULE = 'github.com/coredns/coredns';
export const KIND_MODULE = 'sigs.k8s.io/kind';
/** Single-binary modules whose main package is the module root: the version flag and what it prints. */
const ROOT_BUILDS: Record<'coredns' | 'kind', { module: string; versionArgs: string[]; versionText: (bare: string) => string }> = {
  coredns: { module: COREDNS_MODULE, versionArgs: ['-version'], versionText: (bare) => `CoreDNS-${bare}` },
  kind: { module: KIND_MODULE, versionArgs: ['version'], versionText: (bare) => `kind v${bare}` },
};
const WRAPPER_MODULE: Record<GoBuildKind, string> = {
  kubernetes: 'kwokts.local/kubebuild',
  etcd: 'kwokts.local/etcdbuild',
  'cluster-autoscaler': 'kwokts.local/cabuild',
  'metrics-server': 'kwokts.local/msbuild',
  jaeger: 'kwokts.local/jaegerbuild',
  'kubernetes-node': 'kwokts.local/kubebuild',
  coredns: 'kwokts.local/corednsbuild',
  kind: 'kwokts.local/kindbuild',
};

/** The wrapper go.mod for a Kubernetes release, from upstream's go.mod text. */
export function buildKubernetesGoMod(upstreamGoMod: string, kubeVersion: string): string {
  const version = normalizeVersion(kubeVersion);
  const upstream = parseGoMod(upstreamGoMod);
  const staging = stagingVersion(version);
  return renderWrapperGoMod({
    module: WRAPPER_MODULE.kubernetes,
    ...(upstream.go ? { go: upstream.go } : {}),
    requires: [{ path: KUBERNETES_MODULE, version }],
    pins: localSiblings(upstream, 'k8s.io/').map((p) => ({ path: p, version: staging })),
  });
}

/** The wrapper go.mod for an etcd release, from the go.mod texts of server, etcdctl and etcdutl. */
export function buildEtcdGoMod(upstreamGoMods: readonly string[], etcdVersion: string): string {
  const version = normalizeVersion(etcdVersion);
  const mods = upstreamGoMods.map(parseGoMod);
  const goVersion = mods.map((m) => m.go).filter((g): g is string => !!g).sort(compareGoVersions).pop();
  const siblings = [...new Set(mods.flatMap((m) => localSiblings(m, 'go.etcd.io/etcd/')))].sort();
  return renderWrapperGoMod({
    module: WRAPPER_MODULE.etcd,
    ...(goVersion ? { go: goVersion } : {}),
    requires: [...ETCD_MODULES].sort().map((p) => ({ path: p, version })),
    pins: siblings.map((p) => ({ path: p, version })),
  });
}

/**
 * The wrapper go.mod for cluster-autoscaler. Its go.mod pins every Kubernetes staging module with
 * `k8s.io/X => k8s.io/X v0.N.M` (k8s.io/kubernetes requires them at v0.0.0), and replace
 * directives of a dependency are ignored, so they are carried over. A sibling it replaces with a
 * local directory is pinned to the version upstream requires, when that is a real version.
 */
export function buildClusterAutoscalerGoMod(upstreamGoMod: string, version: string): string {
  return buildPinnedGoMod(WRAPPER_MODULE['cluster-autoscaler'], CLUSTER_AUTOSCALER_MODULE, upstreamGoMod, version);
}

/**
 * The wrapper go.mod for one module's release: it requires that release and carries over the pins
 * of its replace block (replace directives of a dependency are ignored, and `go install` refuses a
 * module that has them; jaeger pins sarama this way).
 */
export function buildPinnedGoMod(wrapper: string, module: string, upstreamGoMod: string, version: string): string {
  const upstream = parseGoMod(upstreamGoMod);
  const pins = new Map<string, string>();
  for (const r of upstream.replaces) {
    if (r.oldVersion !== undefined) continue;
    if (r.newVersion !== undefined && r.newPath === r.oldPath) pins.set(r.oldPath, r.newVersion);
  }
  for (const sibling of localSiblings(upstream, '')) {
    const required = upstream.requires.find((q) => q.path === sibling)?.version;
    if (required && !/^v0\.0\.0(\+incompatible)?$/.test(required)) pins.set(sibling, required);
  }
  return renderWrapperGoMod({
    module: wrapper,
    ...(upstream.go ? { go: upstream.go } : {}),
    requires: [{ path: module, version: normalizeVersion(version) }],
    pins: [...pins].sort(([a], [b]) => a.localeCompare(b)).map(([path, v]) => ({ path, version: v })),
  });
}

/** Fixed build metadata, so the binaries report the release and rebuilds hit Go's build cache. */
export const GO_BUILD_DATE = '2026-01-01T00:00:00Z';
const ZERO_COMMIT = '0000000000000000000000000000000000000000';

/** `-s -w` plus the version stamps Kubernetes' own build sets (component-base and client-go). */
export function kubernetesLdflags(kubeVersion: string): string {
  const version = normalizeVersion(kubeVersion);
  const m = /^v(\d+)\.(\d+)/.exec(version);
  const major = m?.[1] ?? '0';
  const minor = m?.[2] ?? '0';
  const flags = ['-s', '-w'];
  for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
    flags.push(
      `-X ${pkg}.gitVersion=${version}`,
      `-X ${pkg}.gitMajor=${major}`,
      `-X ${pkg}.gitMinor=${minor}`,
      `-X ${pkg}.gitTreeState=clean`,
      `-X ${pkg}.gitCommit=${ZERO_COMMIT}`,
      `-X ${pkg}.buildDate=${GO_BUILD_DATE}`,
    );
  }
  return flags.join(' ');
}

/** etcd's version is a constant in its api module; only strip symbols. */
export function etcdLdflags(): string {
  return '-s -w';
}

/** The file name `go build -o dir/` gives a main package: its last path element, skipping `/vN`. */
export function goBinaryName(pkg: string): string {
  const parts = pkg.split('/');
  const last = parts[parts.length - 1]!;
  return /^v\d+$/.test(last) && parts.length > 1 ? parts[parts.length - 2]! : last;
}

export interface GoBuildOutput {
  name: BuildableName;
  /** The main package. */
  pkg: string;
  /** The name `go build` writes. */
  builtName: string;
  /** Arguments that print the version, and the text that must appear in the output. */
  versionArgs: string[];
  versionText: string;
}

export interface GoBuildPlan {
  kind: GoBuildKind;
  version: string;
  /** Modules whose go.mod is read (`go mod download -json <module>@<version>`). */
  modules: string[];
  /** Where the throwaway module lives. */
  srcDir: string;
  /** Where the binaries end up. */
  outDir: string;
  getArgs: string[];
  ldflags: string;
  /** Everything after `go` for the single build, with `<outdir>` standing for the temp output dir. */
  buildArgs: (tmpOutDir: string) => string[];
  env: Record<string, string>;
  outputs: GoBuildOutput[];
}

/** What a Go build of `kind` at `version` would do and produce (pure). */
export function planGoBuild(kind: GoBuildKind, version: string, cacheDir: string): GoBuildPlan {
  const v = normalizeVersion(version);
  const srcDir = path.join(cacheDir, 'gobuild', 'src', `${kind}-${v}`);
  const outDir = goBuildDir(cacheDir, kind, v);
  const env = { CGO_ENABLED: '0', GOWORK: 'off' };
  if (kind === 'kubernetes' || kind === 'kubernetes-node') {
    // kubernetes-node (kubelet, kubeadm, kube-proxy: what a kind node image needs) is a family of its
    // own so the control-plane cache, which every cluster needs, is not invalidated by it.
    const names = binariesOfKind(kind);
    const pkgs = names.map((n) => `${KUBERNETES_MODULE}/cmd/${n}`);
    const ldflags = kubernetesLdflags(v);
    return {
      kind,
      version: v,
      modules: [KUBERNETES_MODULE],
      srcDir,
      outDir,
      getArgs: ['get', ...pkgs.map((p) => `${p}@${v}`)],
      ldflags,
      buildArgs: (tmp) => ['build', '-trimpath', '-ldflags', ldflags, '-o', tmp + path.sep, ...pkgs],
      env,
      outputs: names.map((name, i) => ({
        name,
        pkg: pkgs[i]!,
        builtName: goBinaryName(pkgs[i]!),
        versionArgs: name === 'kubectl' ? ['version', '--client'] : name === 'kubeadm' ? ['version', '-o', 'short'] : ['--version'],
        versionText: name === 'kubectl' ? `Client Version: ${v}` : name === 'kubeadm' ? v : `Kubernetes ${v}`,
      })),
    };
  }
  if (kind === 'cluster-autoscaler') {
    const pkg = CLUSTER_AUTOSCALER_KWOK_PACKAGE;
    const ldflags = '-s -w';
    return {
      kind,
      version: v,
      modules: [CLUSTER_AUTOSCALER_MODULE],
      srcDir,
      outDir,
      getArgs: ['get', `${pkg}@${v}`],
      ldflags,
      buildArgs: (tmp) => ['build', '-trimpath', '-ldflags', ldflags, '-o', tmp + path.sep, pkg],
      env,
      // It has no --version flag; its usage naming --cloud-provider proves a working binary.
      outputs: [{ name: 'cluster-autoscaler', pkg, builtName: goBinaryName(pkg), versionArgs: ['--help'], versionText: '--cloud-provider' }],
    };
  }
  if (kind === 'coredns' || kind === 'kind') {
    const root = ROOT_BUILDS[kind];
    const ldflags = '-s -w';
    return {
      kind,
      version: v,
      modules: [root.module],
      srcDir,
      outDir,
      getArgs: ['get', `${root.module}@${v}`],
      ldflags,
      buildArgs: (tmp) => ['build', '-trimpath', '-ldflags', ldflags, '-o', tmp + path.sep, root.module],
      env,
      outputs: [{ name: kind, pkg: root.module, builtName: goBinaryName(root.module), versionArgs: root.versionArgs, versionText: root.versionText(v.replace(/^v/, '')) }],
    };
  }
  if (kind === 'metrics-server' || kind === 'jaeger') {
    const addon = ADDON_BUILDS[kind];
    // metrics-server's own build stamps its release into client-go's version package (its --version).
    const ldflags = kind === 'metrics-server' ? `-s -w -X k8s.io/client-go/pkg/version.gitVersion=${v} -X k8s.io/client-go/pkg/version.gitTreeState=clean -X k8s.io/client-go/pkg/version.buildDate=${GO_BUILD_DATE}` : '-s -w';
    return {
      kind,
      version: v,
      modules: [addon.module],
      srcDir,
      outDir,
      getArgs: ['get', `${addon.pkg}@${v}`],
      ldflags,
      buildArgs: (tmp) => ['build', '-trimpath', '-ldflags', ldflags, '-o', tmp + path.sep, addon.pkg],
      env,
      outputs: [
        kind === 'metrics-server'
          ? { name: kind, pkg: addon.pkg, builtName: goBinaryName(addon.pkg), versionArgs: ['--version'], versionText: v }
          : { name: kind, pkg: addon.pkg, builtName: goBinaryName(addon.pkg), versionArgs: ['--help'], versionText: addon.helpText },
      ],
    };
  }
  const bare = v.replace(/^v/, '');
  const pkgFor: Record<string, string> = { etcd: ETCD_MODULES[0], etcdctl: ETCD_MODULES[1], etcdutl: ETCD_MODULES[2] };
  const names = binariesOfKind('etcd');
  const ldflags = etcdLdflags();
  return {
    kind,
    version: v,
    modules: [...ETCD_MODULES],
    srcDir,
    outDir,
    getArgs: ['get', ...ETCD_MODULES.map((m) => `${m}@${v}`)],
    ldflags,
    buildArgs: (tmp) => ['build', '-trimpath', '-ldflags', ldflags, '-o', tmp + path.sep, ...ETCD_MODULES],
    env,
    outputs: names.map((name) => ({
      name,
      pkg: pkgFor[name]!,
      builtName: goBinaryName(pkgFor[name]!),
      versionArgs: name === 'etcd' ? ['--version'] : ['version'],
      // `etcd --version` prints "etcd Version: X"; `etcdctl version` / `etcdutl version` print "<name> version: X".
      versionText: name === 'etcd' ? `etcd Version: ${bare}` : `${name} version: ${bare}`,
    })),
  };
}

/** The union of go.sum texts, each line once, sorted as go writes them. */
export function mergeGoSums(texts: readonly string[]): string {
  const lines = new Set(texts.flatMap((t) => t.split('\n')).map((l) => l.trim()).filter((l) => /^\S+ \S+ h1:\S+$/.test(l)));
  return lines.size === 0 ? '' : `${[...lines].sort().join('\n')}\n`;
}

/** The wrapper go.mod for a plan, from the upstream go.mod texts (in `plan.modules` order). */
export function buildWrapperGoMod(plan: GoBuildPlan, upstreamGoMods: readonly string[]): string {
  if (plan.kind === 'cluster-autoscaler') return buildClusterAutoscalerGoMod(upstreamGoMods[0] ?? '', plan.version);
  if (plan.kind === 'metrics-server' || plan.kind === 'jaeger') return buildPinnedGoMod(WRAPPER_MODULE[plan.kind], ADDON_BUILDS[plan.kind].module, upstreamGoMods[0] ?? '', plan.version);
  if (plan.kind === 'coredns' || plan.kind === 'kind') return buildPinnedGoMod(WRAPPER_MODULE[plan.kind], ROOT_BUILDS[plan.kind].module, upstreamGoMods[0] ?? '', plan.version);
  return plan.kind === 'kubernetes' || plan.kind === 'kubernetes-node' ? buildKubernetesGoMod(upstreamGoMods[0] ?? '', plan.version) : buildEtcdGoMod(upstreamGoMods, plan.version);
}

// ---------------------------------------------------------------------------------------------
// Running the build

export interface GoToolchain {
  /** The command used to run go (as given, e.g. `go`). */
  command: string;
  /** e.g. `go1.26.8`. */
  version: string;
}

/** Finds the go tool; undefined when it cannot be run. */
export async function detectGo(command = 'go', signal?: AbortSignal): Promise<GoToolchain | undefined> {
  try {
    const execa = await loadExeca();
    const result = await execa(command, ['env', 'GOVERSION'], { reject: false, timeout: 30_000, ...(signal ? { cancelSignal: signal } : {}) });
    if (result.exitCode !== 0 || result.failed) return undefined;
    const version = String(result.stdout).trim();
    return version ? { command, version } : undefined;
  } catch {
    return undefined;
  }
}

export interface GoBuildOptions {
  cacheDir: string;
  logger?: Logger;
  onProgress?: ProgressCallback;
  signal?: AbortSignal;
  /** The go tool to run (default `go` from PATH). */
  go?: string;
  /** Rebuild even when every output is already in the cache. */
  force?: boolean;
  /** Lock timing (shares the download tuning's lock settings). */
  tuning?: Partial<DownloadTuning>;
}

export interface GoBuildResult {
  kind: GoBuildKind;
  version: string;
  dir: string;
  binaries: Partial<Record<BuildableName, string>>;
  /** False when everything was already in the cache. */
  built: boolean;
  durationMs: number;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function binariesMap(plan: GoBuildPlan): Partial<Record<BuildableName, string>> {
  return Object.fromEntries(plan.outputs.map((o) => [o.name, path.join(plan.outDir, o.name)]));
}

async function allPresent(plan: GoBuildPlan): Promise<boolean> {
  for (const o of plan.outputs) if (!(await isFile(path.join(plan.outDir, o.name)))) return false;
  return true;
}

export interface RunGoOptions {
  go: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** The cache directory: the go tool's caches are kwokts's own, under it (goCacheEnv). */
  cacheDir: string;
  signal?: AbortSignal;
  onLine?: (line: string) => void;
}

/**
 * Where kwokts's go commands keep Go's build and module caches: under the cache directory, not
 * the user's ~/.cache/go-build and ~/go/pkg/mod, so that everything a first build fills (most of
 * its disk use) is in one place that `artifacts prune` can free without touching the user's own Go work.
 * A GOCACHE or GOMODCACHE the user set is theirs and is used as it is.
 */
export function goCacheEnv(cacheDir: string, env: Readonly<Record<string, string | undefined>> = process.env): { GOCACHE?: string; GOMODCACHE?: string } {
  return {
    ...(env['GOCACHE'] ? {} : { GOCACHE: path.join(cacheDir, 'go', 'build-cache') }),
    ...(env['GOMODCACHE'] ? {} : { GOMODCACHE: path.join(cacheDir, 'go', 'mod-cache') }),
  };
}

/** Runs the go tool, streaming its output lines; ExternalCommandError (with the tail) on failure. */
export async function runGo(args: string[], options: RunGoOptions): Promise<string> {
  const execa = await loadExeca();
  const subprocess = execa(options.go, args, {
    cwd: options.cwd,
    env: { ...goCacheEnv(options.cacheDir), ...options.env },
    all: true,
    buffer: { stdout: true, stderr: false, all: false },
    reject: false,
    stdin: 'ignore',
    ...(options.signal ? { cancelSignal: options.signal, forceKillAfterDelay: 5000 } : {}),
  });
  const tail: string[] = [];
  for await (const line of subprocess.iterable({ from: 'all' })) {
    const text = String(line);
    tail.push(text);
    if (tail.length > KEPT_OUTPUT_LINES) tail.shift();
    options.onLine?.(text);
  }
  const result = await subprocess;
  if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted');
  if (result.exitCode !== 0 || result.failed) {
    const command = [options.go, ...args];
    throw commandFailed(command, `${options.go} ${args[0]} failed (exit ${result.exitCode ?? result.signal ?? 'unknown'})`, tail.join('\n'), {
      hint: 'see the go output above; the module proxy (GOPROXY) must be reachable and the disk needs a few GB free',
    });
  }
  return String(result.stdout ?? '');
}

async function syncPath(file: string): Promise<void> {
  const fh = await open(file, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * What a cold build costs, as the user is told before it starts (the figures are those of
 * docs/user/offline.md): a build nobody was warned about looks hung.
 */
const COLD_BUILD_COST: Partial<Record<GoBuildKind, string>> = {
  kubernetes: 'about 6–16 minutes on a 2-core machine and about 4.5 GB of disk',
  'kubernetes-node': 'about 6–16 minutes on a 2-core machine and about 4.5 GB of disk',
  jaeger: 'about half an hour on a 2-core machine and GBs of disk',
};

/** The line that says a build starts, what it costs and where the space goes. */
export function buildStartMessage(kind: GoBuildKind, version: string, goVersion: string, cacheDir: string, cpus: number = availableParallelism(), env: Readonly<Record<string, string | undefined>> = process.env): string {
  const cost = COLD_BUILD_COST[kind] ?? 'minutes and GBs of disk';
  const caches = goCacheEnv(cacheDir, env);
  const where = caches.GOCACHE || caches.GOMODCACHE ? `most of it Go's caches under ${path.join(cacheDir, 'go')} (\`kwokts artifacts prune\` frees them)` : "most of it Go's caches (your GOCACHE and GOMODCACHE)";
  return `building ${kind} ${version} from Go modules with ${goVersion}: a cold build takes ${cost} (this machine has ${cpus} CPU${cpus === 1 ? '' : 's'}), ${where}`;
}

/** A line of `go build -v`: the import path of a package it compiled. */
const PACKAGE_LINE = /^[\w.~-]+(\/[\w.~+-]+)*$/;
/** A line of `go get` about a module: `go: downloading k8s.io/api v0.36.1`. */
const MODULE_LINE = /^go: (?:downloading|added|upgraded|found) (\S+)(?: (\S+))?/;

/**
 * Builds every binary of `kind` (kubernetes: kube-apiserver, kube-controller-manager,
 * kube-scheduler, kubectl; etcd: etcd, etcdctl, etcdutl) at `version` into
 * `<cacheDir>/gobuild/<kind>/<version>/`. Idempotent, locked against concurrent builds, atomic per
 * binary, and each output's `--version` is checked before it is installed.
 */
export async function buildFromGoModules(kind: GoBuildKind, version: string, options: GoBuildOptions): Promise<GoBuildResult> {
  const started = Date.now();
  const plan = planGoBuild(kind, version, options.cacheDir);
  const logger = options.logger ?? silentLogger;
  const emit = (phase: GoBuildPhase, at: { line?: string; item?: string; done?: number; total?: number } = {}): void => {
    options.onProgress?.({ type: 'build', kind, version: plan.version, phase, ...at });
  };
  const result = (built: boolean): GoBuildResult => ({ kind, version: plan.version, dir: plan.outDir, binaries: binariesMap(plan), built, durationMs: Date.now() - started });

  if (!options.force && (await allPresent(plan))) return result(false);
  const go = await detectGo(options.go ?? 'go', options.signal);
  if (!go) {
    throw new PreflightError(`cannot build ${kind} ${plan.version} from source: the go tool was not found on PATH`, {
      hint: 'install Go (https://go.dev/dl/) and try again',
    });
  }

  return withFileLock(plan.outDir, { ...(options.logger ? { logger: options.logger } : {}), ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}), tuning: { lockWaitMs: 4 * 3_600_000, ...options.tuning } }, async () => {
    if (!options.force && (await allPresent(plan))) return result(false);
    await removeStaleTemps(plan.outDir);
    logger.info(buildStartMessage(kind, plan.version, go.version, options.cacheDir));
    const run = (args: string[], cwd: string, onLine: ((line: string) => void) | undefined, env: Record<string, string> = plan.env): Promise<string> =>
      runGo(args, {
        go: go.command,
        cwd,
        env,
        cacheDir: options.cacheDir,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(onLine ? { onLine } : {}),
      });
    const goLine = (phase: GoBuildPhase) => (line: string): void => {
      logger.debug(`go: ${line}`);
      emit(phase, { line });
    };

    // 1. Read upstream's go.mod files. `-json` is for this code to read, not for the screen.
    const workRoot = path.dirname(plan.srcDir);
    await mkdir(workRoot, { recursive: true });
    const upstream: string[] = [];
    const upstreamSums: string[] = [];
    for (const [i, mod] of plan.modules.entries()) {
      emit('resolve', { item: mod, done: i + 1, total: plan.modules.length });
      const out = await run(['mod', 'download', '-json', `${mod}@${plan.version}`], workRoot, undefined, { GOWORK: 'off' });
      const info = JSON.parse(out) as { GoMod?: string; Dir?: string; Error?: string };
      if (!info.GoMod) {
        throw commandFailed([go.command, 'mod', 'download', '-json', `${mod}@${plan.version}`], `go mod download ${mod}@${plan.version} gave no go.mod${info.Error ? `: ${info.Error}` : ''}`, out);
      }
      upstream.push(await readFile(info.GoMod, 'utf8'));
      if (info.Dir) upstreamSums.push(await readFile(path.join(info.Dir, 'go.sum'), 'utf8').catch(() => ''));
    }

    // 2. The throwaway module, then `go get` the commands (fills go.mod and go.sum).
    emit('prepare');
    await mkdir(plan.srcDir, { recursive: true });
    await writeFile(path.join(plan.srcDir, 'go.mod'), buildWrapperGoMod(plan, upstream));
    // Seeded with upstream's own go.sum: the checksum database does not know every dependency
    // (jaeger's OpenTelemetry modules answer 404 there), and go only asks it about modules go.sum
    // lacks. Integrity still holds: upstream's go.sum is part of its module, whose hash the
    // checksum database did verify.
    const sums = mergeGoSums(upstreamSums);
    if (sums) await writeFile(path.join(plan.srcDir, 'go.sum'), sums);
    let fetched = 0;
    await run(plan.getArgs, plan.srcDir, (line) => {
      const module = MODULE_LINE.exec(line);
      if (!module) return goLine('prepare')(line);
      logger.debug(`go: ${line}`);
      fetched += 1;
      emit('prepare', { item: module[2] ? `${module[1]} ${module[2]}` : module[1]!, done: fetched });
    });

    // 3. One build for all commands, into a temp dir next to the final one.
    const kindDir = path.dirname(plan.outDir);
    const tmpOut = path.join(kindDir, `.${path.basename(plan.outDir)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    await mkdir(tmpOut, { recursive: true });
    try {
      // How many packages the build may compile (Go's cache spares it some): `go list -deps`.
      emit('compile');
      const pkgs = [...new Set(plan.outputs.map((o) => o.pkg))];
      const listed = await run(['list', '-deps', '-f', '{{.ImportPath}}', ...pkgs], plan.srcDir, undefined).catch(() => '');
      const total = listed.split('\n').filter((l) => l.trim() !== '').length || undefined;
      // -v names each package as it is compiled: the progress of a build that is otherwise silent.
      const [verb, ...rest] = plan.buildArgs(tmpOut);
      let compiled = 0;
      await run([verb!, '-v', ...rest], plan.srcDir, (line) => {
        if (!PACKAGE_LINE.test(line)) return goLine('compile')(line);
        compiled += 1;
        emit('compile', { item: line, done: compiled, ...(total !== undefined ? { total: Math.max(total, compiled) } : {}) });
      });

      // 4. Name the outputs and check that each reports the wanted version.
      for (const [i, o] of plan.outputs.entries()) {
        emit('verify', { item: o.name, done: i + 1, total: plan.outputs.length });
        const built = path.join(tmpOut, o.builtName);
        const named = path.join(tmpOut, o.name);
        if (built !== named) await rename(built, named);
        const execa = await loadExeca();
        const check = await execa(named, o.versionArgs, { reject: false, timeout: 60_000, all: true, stdin: 'ignore' });
        const output = String(check.all ?? '');
        if (!output.includes(o.versionText)) {
          throw commandFailed([named, ...o.versionArgs], `${o.name} built from ${o.pkg}@${plan.version} does not report "${o.versionText}"`, output);
        }
      }

      // 5. Move each binary into place (each rename is atomic).
      emit('install');
      await mkdir(plan.outDir, { recursive: true });
      for (const o of plan.outputs) {
        const from = path.join(tmpOut, o.name);
        await syncPath(from);
        await rename(from, path.join(plan.outDir, o.name));
      }
    } finally {
      await rm(tmpOut, { recursive: true, force: true }).catch(() => undefined);
    }
    emit('done');
    const done = result(true);
    logger.info(`built ${kind} ${plan.version} in ${Math.round(done.durationMs / 1000)}s: ${plan.outDir}`);
    return done;
  });
}

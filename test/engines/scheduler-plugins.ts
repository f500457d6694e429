/**
 * scheduler-plugins (sigs.k8s.io/scheduler-plugins) for the e2e tests of `--enable scheduler-plugins`:
 * its scheduler (a kube-scheduler with the plugins compiled in) and its controller, built from the Go
 * module at kwokctl's default version, because its images cannot be pulled here (no registry). The
 * tests' own copy, like kectl's: kwokts never builds it. test/engines/images.ts makes the two images
 * from these binaries under their default names.
 *
 * Its go.mod pins ~30 Kubernetes staging modules (k8s.io/api, ...) and k8s.io/kubernetes by `replace`
 * to the patch release it was cut against. Where the Go module proxy does not serve that patch of
 * some of them, they are pinned to the highest patch of the same minor that it serves for all of
 * them: the API is the same within a minor. The binaries report the Kubernetes release they are
 * built on (-X gitVersion), which kube-scheduler needs to accept its own emulation version.
 *
 * Run: node --import tsx test/engines/scheduler-plugins.ts (builds when missing, prints the paths)
 */
import { execa } from 'execa';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_SCHEDULER_PLUGINS_VERSION } from '../../src/config/versions.js';

const MODULE = 'sigs.k8s.io/scheduler-plugins';
const VERSION = `v${DEFAULT_SCHEDULER_PLUGINS_VERSION}`;

export interface SchedulerPluginsBinaries {
  'kube-scheduler': string;
  controller: string;
}

/** Where the binaries are kept: the shared cache, outside the repository (as kectl's test copy is). */
export function schedulerPluginsDir(): string {
  const cache = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');
  return join(cache, 'test-tools', 'scheduler-plugins', VERSION);
}

/** The two binaries when both are built, else undefined. */
export function builtSchedulerPlugins(): SchedulerPluginsBinaries | undefined {
  const dir = schedulerPluginsDir();
  const binaries: SchedulerPluginsBinaries = { 'kube-scheduler': join(dir, 'kube-scheduler'), controller: join(dir, 'controller') };
  return existsSync(binaries['kube-scheduler']) && existsSync(binaries.controller) ? binaries : undefined;
}

interface DownloadResult {
  Path: string;
  Version: string;
  Dir?: string;
  Error?: string;
}

/** `go mod download -json` of module@version arguments; its output is one JSON object per module. */
async function goModDownload(modules: string[], cwd: string): Promise<DownloadResult[]> {
  const result = await execa('go', ['mod', 'download', '-json', ...modules], { cwd, reject: false });
  const out = String(result.stdout).trim();
  // Top-level objects start at a line's beginning; nested ones (Origin) are indented.
  const results = out ? out.split(/\n(?=\{)/).map((o) => JSON.parse(o) as DownloadResult) : [];
  if (results.length === 0 && result.exitCode !== 0) throw new Error(`go mod download failed: ${String(result.stderr)}`);
  return results;
}

interface GoModReplace {
  Old: { Path: string; Version?: string };
  New: { Path: string; Version?: string };
}

/** Module cache files are read-only; the copy is edited (go.mod, go.sum) and removed afterwards. */
function makeWritable(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  chmodSync(path, stat.isDirectory() ? 0o755 : stat.mode | 0o200);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) makeWritable(join(path, entry));
}

/** The highest patch ≤ the published one whose replaced k8s.io modules the proxy serves (see the header). */
async function pinServedKubernetes(src: string, log: (line: string) => void): Promise<void> {
  const { stdout } = await execa('go', ['mod', 'edit', '-json'], { cwd: src });
  const replaces = ((JSON.parse(String(stdout)) as { Replace?: GoModReplace[] }).Replace ?? []).filter(
    (r) => r.New.Path.startsWith('k8s.io/') && r.New.Version !== undefined,
  );
  const kubernetes = replaces.find((r) => r.New.Path === 'k8s.io/kubernetes');
  const match = kubernetes && /^v1\.(\d+)\.(\d+)$/.exec(kubernetes.New.Version!);
  if (!kubernetes || !match) return;
  const [, minor, published] = match;
  // The staging modules released with that Kubernetes (v0.<minor>.<patch>); others (an old
  // k8s.io/legacy-cloud-providers) are left as they are.
  const staging = replaces.filter((r) => r.New.Version === `v0.${minor}.${published}`);
  // k8s.io/sample-*: Kubernetes' example modules, nothing here imports them; the proxy serves few
  // of their versions, so one not served is dropped instead of holding the pin back.
  const optional = (path: string): boolean => path.startsWith('k8s.io/sample-');
  // Probed outside the module, so that its own replaces cannot redirect the probe.
  let unserved: string[] = [];
  for (let patch = Number(published); patch >= 0; patch--) {
    const targets = [...staging.map((r) => `${r.New.Path}@v0.${minor}.${patch}`), `k8s.io/kubernetes@v1.${minor}.${patch}`];
    const failed = (await goModDownload(targets, tmpdir())).filter((r) => r.Error).map((r) => r.Path);
    if (patch === Number(published)) unserved = failed.filter((path) => !optional(path));
    if (failed.some((path) => !optional(path))) continue;
    if (failed.length === 0 && unserved.length === 0) return; // the go.mod as published builds
    const drop = staging.filter((r) => failed.includes(r.New.Path)).map((r) => r.Old.Path);
    const edits = [
      ...staging.filter((r) => !drop.includes(r.Old.Path)).map((r) => `-replace=${r.Old.Path}=${r.New.Path}@v0.${minor}.${patch}`),
      `-replace=k8s.io/kubernetes=k8s.io/kubernetes@v1.${minor}.${patch}`,
      ...drop.map((path) => `-dropreplace=${path}`),
    ];
    await execa('go', ['mod', 'edit', ...edits], { cwd: src });
    log(
      `${MODULE}@${VERSION}: pinned its k8s.io replaces to v0.${minor}.${patch} and k8s.io/kubernetes to v1.${minor}.${patch}` +
        (unserved.length ? ` (the module proxy does not serve the published versions of ${unserved.join(', ')})` : '') +
        (drop.length ? `; dropped the replaces of ${drop.join(', ')} (unused examples, not served)` : ''),
    );
    return;
  }
  throw new Error(`${MODULE}@${VERSION}: the module proxy serves no v0.${minor}.N release of all of its replaced k8s.io modules`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Build both binaries into schedulerPluginsDir() unless they are there. Into a temporary name first,
 * renamed when the build is done, so an interrupted build leaves nothing that looks built.
 */
export async function buildSchedulerPlugins(log: (line: string) => void = (line) => console.error(line)): Promise<SchedulerPluginsBinaries> {
  const built = builtSchedulerPlugins();
  if (built) return built;
  const dir = schedulerPluginsDir();
  mkdirSync(dir, { recursive: true });
  // What a killed build left (its process is gone); a build still running keeps its own.
  for (const entry of readdirSync(dir)) {
    const pid = /^\.partial-(\d+)$/.exec(entry)?.[1];
    if (pid && !alive(Number(pid))) rmSync(join(dir, entry), { recursive: true, force: true });
  }
  // The module's copy and the build's output, together: what a killed build leaves is removed above.
  const partial = join(dir, `.partial-${process.pid}`);
  const src = join(partial, 'src');
  const out = join(partial, 'out');
  try {
    const [module] = await goModDownload([`${MODULE}@${VERSION}`], tmpdir());
    if (!module?.Dir) throw new Error(`go mod download ${MODULE}@${VERSION} failed: ${module?.Error ?? 'no result'}`);
    cpSync(module.Dir, src, { recursive: true });
    makeWritable(src);
    await pinServedKubernetes(src, log);
    mkdirSync(out);
    log(`building ${MODULE}@${VERSION} (./cmd/scheduler, ./cmd/controller)`);
    // The version kube-scheduler checks its emulation version against: it must be the Kubernetes
    // release it was built on (scheduler-plugins' own v0.34.7 makes it refuse to start, "emulation
    // version 0.34 is not between [1.31, 0.34.0]").
    const kubernetes = /k8s\.io\/kubernetes => k8s\.io\/kubernetes (v\S+)/.exec(readFileSync(join(src, 'go.mod'), 'utf8'))?.[1];
    if (!kubernetes) throw new Error(`${MODULE}@${VERSION}: its go.mod pins no k8s.io/kubernetes`);
    const ldflags = `-s -w -X k8s.io/component-base/version.gitVersion=${kubernetes}`;
    const result = await execa('go', ['build', '-trimpath', '-ldflags', ldflags, '-o', `${out}/`, './cmd/scheduler', './cmd/controller'], {
      cwd: src,
      env: { CGO_ENABLED: '0', GOFLAGS: '-mod=mod' },
      reject: false,
      all: true,
    });
    if (result.exitCode !== 0) throw new Error(`go build of ${MODULE}@${VERSION} failed:\n${String(result.all)}`);
    // cmd/scheduler builds as `scheduler`; the image (and kwokctl) call it kube-scheduler.
    renameSync(join(out, 'controller'), join(dir, 'controller'));
    renameSync(join(out, 'scheduler'), join(dir, 'kube-scheduler'));
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return builtSchedulerPlugins()!;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const started = Date.now();
  console.log(JSON.stringify(await buildSchedulerPlugins()), `${((Date.now() - started) / 1000).toFixed(1)}s`);
}

/**
 * The images the container e2e tests need, made locally under kwokctl's default names so nothing
 * is pulled (there is no registry here): control-plane images from the static Go-built binaries
 * (a rootfs with the one binary, `import`ed), and the kwok controller image from a rootfs with
 * the host's node, the shared libraries it links and this package (as the Dockerfile lays it out).
 * Cached: an image is re-imported only when its inputs (paths, sizes, mtimes) changed.
 *
 * Run: node --import tsx test/engines/images.ts docker|podman
 */
import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { resolveImages, schedulerPluginsImage, DEFAULT_KWOK_CONTROLLER_IMAGE } from '../../src/artifacts/images.js';
import { defaultOptionValues } from '../../src/config/options.js';
import { DEFAULT_JAEGER_VERSION, DEFAULT_KUBE_VERSION, DEFAULT_METRICS_SERVER_VERSION, etcdVersionForKube } from '../../src/config/versions.js';
import { goBuildPath } from '../../src/artifacts/sources.js';
import { CONTROLLER_NODE_OPTIONS } from '../../src/components/kwok-controller.js';
import { peerBinary } from '../peers.js';
import { builtSchedulerPlugins } from './scheduler-plugins.js';

const ROOT = resolve(import.meta.dirname, '../..');
const STAGING = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kwokts', 'images');
const DIGEST_ENV = 'KWOKTS_IMAGE_INPUTS';

export type TestEngine = 'docker' | 'podman';

interface ImageRecipe {
  ref: string;
  /** Files of the rootfs: destination path inside the image → host path. */
  files: Array<[string, string]>;
  /** Directories copied whole (dereferenced): destination → host path. */
  dirs: Array<[string, string]>;
  changes: string[];
}

/** Fingerprint of the inputs: cheap (stat, not content) and changes when any input does. */
function fingerprint(recipe: ImageRecipe): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(recipe.changes));
  for (const [to, from] of [...recipe.files, ...recipe.dirs]) {
    const s = statSync(from);
    hash.update(`${to}\0${from}\0${s.size}\0${s.mtimeMs}\n`);
  }
  // dist/ is rebuilt often: its files' mtimes count, not just the directory's.
  for (const [, from] of recipe.dirs) if (from.endsWith('/dist')) hash.update(listFiles(from).join('\n'));
  return hash.digest('hex').slice(0, 16);
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(path);
    const s = statSync(path);
    return [`${path}:${s.size}:${s.mtimeMs}`];
  });
}

function engineEnv(engine: TestEngine): NodeJS.ProcessEnv {
  return { ...process.env, ...(engine === 'podman' ? podmanEnv() : {}) };
}

/**
 * The podman CLI reads the same containers.conf and storage as the test's API service: the tests'
 * images stay out of the machine's default podman storage, so a plain `kwokts create cluster` on
 * this machine is not steered to podman by images only the tests can run.
 */
export function podmanEnv(): Record<string, string> {
  const root = process.env.KWOKTS_TEST_ENGINES ?? '/var/lib/kwokts-test';
  const conf = join(root, 'containers.conf');
  const storage = join(root, 'storage.conf');
  return { ...(existsSync(conf) ? { CONTAINERS_CONF: conf } : {}), ...(existsSync(storage) ? { CONTAINERS_STORAGE_CONF: storage } : {}) };
}

async function currentInputs(engine: TestEngine, ref: string): Promise<string | undefined> {
  const result = await execa(engine, ['image', 'inspect', '--format', '{{json .Config.Env}}', ref], { reject: false, env: engineEnv(engine) });
  if (result.exitCode !== 0) return undefined;
  const env = JSON.parse(String(result.stdout) || '[]') as string[] | null;
  return (env ?? []).find((e) => e.startsWith(`${DIGEST_ENV}=`))?.slice(DIGEST_ENV.length + 1);
}

function place(rootfs: string, to: string, from: string): void {
  const target = join(rootfs, to);
  mkdirSync(dirname(target), { recursive: true });
  try {
    linkSync(realpathSync(from), target);
  } catch {
    copyFileSync(realpathSync(from), target);
  }
}

async function ensureImage(engine: TestEngine, recipe: ImageRecipe): Promise<'cached' | 'imported'> {
  const inputs = fingerprint(recipe);
  if ((await currentInputs(engine, recipe.ref)) === inputs) return 'cached';
  const rootfs = join(STAGING, recipe.ref.replace(/[^A-Za-z0-9.-]/g, '_'));
  rmSync(rootfs, { recursive: true, force: true });
  mkdirSync(join(rootfs, 'tmp'), { recursive: true });
  for (const [to, from] of recipe.files) place(rootfs, to, from);
  for (const [to, from] of recipe.dirs) cpSync(from, join(rootfs, to), { recursive: true, dereference: true });
  const previous = await execa(engine, ['image', 'inspect', '--format', '{{.Id}}', recipe.ref], { reject: false, env: engineEnv(engine) });
  const changes = [...recipe.changes, `ENV ${DIGEST_ENV}=${inputs}`].flatMap((c) => ['--change', c]);
  const tar = execa('tar', ['-C', rootfs, '-c', '.'], { buffer: false });
  const imported = execa(engine, ['import', ...changes, '-', recipe.ref], { env: engineEnv(engine), reject: false, all: true });
  tar.stdout?.pipe(imported.stdin!);
  const [, result] = await Promise.all([tar, imported]);
  if (result.exitCode !== 0) throw new Error(`${engine} import ${recipe.ref} failed: ${String(result.all)}`);
  rmSync(rootfs, { recursive: true, force: true });
  // The replaced image is now untagged: remove it, or every rebuild of dist/ leaves ~200 MB behind.
  if (previous.exitCode === 0 && String(previous.stdout).trim()) {
    await execa(engine, ['rmi', String(previous.stdout).trim()], { reject: false, env: engineEnv(engine) });
  }
  return 'imported';
}

/** Paths of the Go-built binaries, as `kwokts get artifacts` resolves them (building them if needed). */
async function binaries(): Promise<Record<string, string>> {
  const result = await execa('node', [join(ROOT, 'bin', 'run.cjs'), 'get', 'artifacts', '--runtime', 'binary', '--filter', 'binary', '-o', 'json']);
  const list = JSON.parse(String(result.stdout)) as Array<{ name: string; path: string }>;
  return Object.fromEntries(list.map((a) => [a.name, a.path]));
}

/** The shared libraries a program links against (ldd), at the paths the loader looks for them. */
async function nodeLibraries(node: string): Promise<Array<[string, string]>> {
  const { stdout } = await execa('ldd', [node]);
  const files: Array<[string, string]> = [];
  for (const line of String(stdout).split('\n')) {
    const arrow = /=>\s+(\/\S+)/.exec(line);
    const direct = /^\s*(\/\S+)\s+\(/.exec(line);
    const path = arrow?.[1] ?? direct?.[1];
    if (path) files.push([path, path]);
  }
  return files;
}

/** Production dependencies (what `npm ci --omit=dev` installs in the Dockerfile). */
async function productionModules(): Promise<Array<[string, string]>> {
  const { stdout } = await execa('npm', ['ls', '--omit=dev', '--parseable', '--all'], { cwd: ROOT, reject: false });
  const modules = realpathSync(join(ROOT, 'node_modules'));
  return String(stdout)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && realpathSync(l) !== realpathSync(ROOT))
    .map((l) => {
      const real = realpathSync(l);
      const rel = real.startsWith(modules) ? real.slice(modules.length) : l.slice(l.indexOf('/node_modules/') + '/node_modules'.length);
      return [join('/app/node_modules', rel), real] as [string, string];
    })
    // A package nested in another is copied with its parent.
    .filter(([to], _i, all) => !all.some(([other]) => other !== to && to.startsWith(other + '/')));
}

/**
 * Prometheus has no Go-module build (its web assets), so its test image is made from Debian's
 * package (/usr/bin/prometheus, which links only libc), under a name of its own that says so. Like
 * the upstream image (prom/prometheus) it runs as nobody (65534) with /bin/prometheus as its
 * entrypoint: the tests then meet the upstream image's user, who cannot read a root-owned 0600 key.
 */
export const TEST_PROMETHEUS_BINARY = '/usr/bin/prometheus';
export const TEST_PROMETHEUS_IMAGE = 'localhost/kwokts-test/prometheus:debian';

async function prometheusRecipe(): Promise<ImageRecipe | undefined> {
  if (!existsSync(TEST_PROMETHEUS_BINARY)) return undefined;
  const binary = realpathSync(TEST_PROMETHEUS_BINARY);
  return {
    ref: TEST_PROMETHEUS_IMAGE,
    files: [['/bin/prometheus', binary], ...(await nodeLibraries(binary))],
    dirs: [],
    changes: ['ENV PATH=/usr/local/bin:/usr/bin:/bin', 'USER 65534:65534', 'ENTRYPOINT ["/bin/prometheus"]'],
  };
}

/**
 * Go kwok's controller (the peer binary, never built here) in an image as kwok's own Dockerfile
 * lays it out (/usr/local/bin/kwok, its entrypoint), with the shared libraries it links: what a
 * kwokctl user passes as --kwok-controller-image, and kwok's own docker e2e does. Only when the
 * binary is there.
 */
/**
 * Where `kwokts artifacts build <name>` puts an addon built from its Go module (metrics-server,
 * jaeger) for its default version: images are made from it only when it is there.
 */
export function goBuiltAddon(name: 'metrics-server' | 'jaeger'): string {
  const cache = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');
  return goBuildPath(cache, name, name === 'jaeger' ? DEFAULT_JAEGER_VERSION : DEFAULT_METRICS_SERVER_VERSION, name);
}

export const TEST_GO_KWOK_IMAGE = 'localhost/kwokts-test/go-kwok:peer';

export function goKwokBinary(): string | undefined {
  const binary = peerBinary('kwok');
  return existsSync(binary) ? realpathSync(binary) : undefined;
}

async function goKwokRecipe(): Promise<ImageRecipe | undefined> {
  const binary = goKwokBinary();
  if (!binary) return undefined;
  // kwok's image is alpine's: a shell and `env` there are what kwok's own exec e2e runs in it.
  const tools = ['/bin/sh', '/usr/bin/env'].filter((t) => existsSync(t));
  const toolFiles = (await Promise.all(tools.map(async (t) => [[t, t] as [string, string], ...(await nodeLibraries(realpathSync(t)))]))).flat();
  return {
    ref: TEST_GO_KWOK_IMAGE,
    files: [['/usr/local/bin/kwok', binary], ...(await nodeLibraries(binary)), ...toolFiles],
    dirs: [],
    changes: ['ENV PATH=/usr/local/bin:/usr/bin:/bin', 'ENTRYPOINT ["/usr/local/bin/kwok"]'],
  };
}

/** `only`: the images to make, by reference (the kind tests' engine needs metrics-server's alone); all by default. */
export async function ensureTestImages(engine: TestEngine, only?: ReadonlySet<string>): Promise<Record<string, 'cached' | 'imported'>> {
  const values = defaultOptionValues();
  const images = resolveImages(values, DEFAULT_KUBE_VERSION, etcdVersionForKube(DEFAULT_KUBE_VERSION));
  const bins = await binaries();
  const env = 'ENV PATH=/usr/local/bin:/usr/bin:/bin';
  const recipes: ImageRecipe[] = (['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const).map((name) => ({
    ref: images[name],
    files: [[`/usr/local/bin/${name}`, bins[name]!]],
    dirs: [],
    changes: [env],
  }));
  const node = realpathSync(process.execPath);
  recipes.push({
    ref: DEFAULT_KWOK_CONTROLLER_IMAGE,
    files: [['/usr/bin/node', node], ...(await nodeLibraries(node)), ['/app/package.json', join(ROOT, 'package.json')]],
    dirs: [
      ['/app/dist', join(ROOT, 'dist')],
      ['/app/bin', join(ROOT, 'bin')],
      ['/app/templates', join(ROOT, 'templates')],
      ...(await productionModules()),
    ],
    changes: [env, 'WORKDIR /app', `ENTRYPOINT ${JSON.stringify(['node', ...CONTROLLER_NODE_OPTIONS, '/app/dist/src/kwok/main.js'])}`],
  });
  // metrics-server: our Go-built binary of the default version under its default name, with the
  // upstream image's user (65534), who cannot read the cluster's 0600 kubeconfig and keys.
  // Only when `kwokts artifacts build` has built it (it is not a default component).
  const metricsServer = goBuiltAddon('metrics-server');
  if (existsSync(metricsServer)) {
    // Laid out as upstream's (distroless): the program at /metrics-server, nothing on PATH.
    recipes.push({ ref: images['metrics-server'], files: [['/metrics-server', metricsServer]], dirs: [], changes: ['USER 65534:65534', 'ENTRYPOINT ["/metrics-server"]'] });
  }
  // jaeger: our Go-built binary of the default version where jaegertracing/all-in-one has it
  // (an image FROM scratch, its entrypoint /go/bin/all-in-one-linux). Only when built.
  const jaeger = goBuiltAddon('jaeger');
  if (existsSync(jaeger)) {
    recipes.push({ ref: images.jaeger, files: [['/go/bin/all-in-one-linux', jaeger]], dirs: [], changes: ['ENTRYPOINT ["/go/bin/all-in-one-linux"]'] });
  }
  // scheduler-plugins: its scheduler and controller as test/engines/scheduler-plugins.ts builds
  // them (the tests' own copy), laid out as upstream's images (build/{scheduler,controller}/
  // Dockerfile, FROM distroless static:nonroot): the program in /bin, its working directory, run
  // as nonroot (65532), who cannot read the cluster's 0600 kubeconfig and keys. Only when built.
  const schedulerPlugins = builtSchedulerPlugins();
  if (schedulerPlugins) {
    for (const which of ['kube-scheduler', 'controller'] as const) {
      recipes.push({
        ref: schedulerPluginsImage(values, which),
        files: [[`/bin/${which}`, schedulerPlugins[which]]],
        dirs: [],
        changes: ['WORKDIR /bin', 'USER 65532:65532', `ENTRYPOINT ["/bin/${which}"]`],
      });
    }
  }
  const prometheus = await prometheusRecipe();
  if (prometheus) recipes.push(prometheus);
  const goKwok = await goKwokRecipe();
  if (goKwok) recipes.push(goKwok);
  const outcome: Record<string, 'cached' | 'imported'> = {};
  for (const recipe of recipes) if (!only || only.has(recipe.ref)) outcome[recipe.ref] = await ensureImage(engine, recipe);
  return outcome;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const engine = process.argv[2] as TestEngine;
  if (engine !== 'docker' && engine !== 'podman') throw new Error('usage: images.ts docker|podman');
  const started = Date.now();
  console.log(JSON.stringify(await ensureTestImages(engine)), `${((Date.now() - started) / 1000).toFixed(1)}s`);
}

/**
 * The kwok controller image (the repository's Dockerfile), built where its base (node:20-slim)
 * cannot be pulled: the Dockerfile takes its base as a build argument, and the base is made here
 * from the host's own node (with the shared libraries it links, npm, and a /bin/sh for RUN), as
 * the test images are. `npm ci` inside the build reaches the npm registry over the host network.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, realpath, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { loadExeca } from '../exec/load-execa.js';
import { ExternalCommandError, PreflightError } from '../util/errors.js';

export const LOCAL_NODE_BASE_REPOSITORY = 'kwokts.local/node-base';

/** The base made from a node version: `kwokts.local/node-base:v20.20.2`. */
export function localNodeBase(nodeVersion: string = process.version): string {
  return `${LOCAL_NODE_BASE_REPOSITORY}:${nodeVersion}`;
}

/** `docker build` of the Dockerfile with a base image (pure). */
export function controllerBuildArgs(root: string, image: string, base: string): string[] {
  return ['build', '--network', 'host', '--build-arg', `BASE_IMAGE=${base}`, '--tag', image, '--file', path.join(root, 'Dockerfile'), root];
}

export interface ControllerImageOptions {
  /** The package root (Dockerfile, package.json, dist/). */
  root: string;
  image: string;
  /** A base image to use as is; default: the one made from the host's node. */
  base?: string;
  docker?: string;
  signal?: AbortSignal;
  onStep?: (line: string) => void;
  cacheDir: string;
}

type Exec = Awaited<ReturnType<typeof loadExeca>>;

async function must(execa: Exec, command: string, args: string[], signal?: AbortSignal, onLine?: (line: string) => void): Promise<string> {
  const child = execa(command, args, { reject: false, all: true, stdin: 'ignore', ...(signal ? { cancelSignal: signal } : {}) });
  const tail: string[] = [];
  for await (const line of child.iterable({ from: 'all' })) {
    tail.push(String(line));
    if (tail.length > 20) tail.shift();
    onLine?.(String(line));
  }
  const result = await child;
  if (result.exitCode !== 0 || result.failed) throw new ExternalCommandError(`${path.basename(command)} ${args[0]} failed (exit ${result.exitCode ?? 'none'})`, [command, ...args], tail.join('\n'));
  return String(result.stdout ?? '');
}

/** The shared libraries of the given host binaries (ldd), as absolute paths. */
async function libraries(execa: Exec, binaries: string[]): Promise<string[]> {
  const out = await must(execa, 'ldd', binaries);
  const libs = new Set<string>();
  for (const line of out.split('\n')) {
    const m = /=>\s+(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m?.[1]) libs.add(m[1]);
  }
  return [...libs];
}

/** Imports the host's node, npm and a shell as an image; skipped when it exists. */
async function ensureNodeBase(execa: Exec, docker: string, cacheDir: string, step: (l: string) => void, signal?: AbortSignal): Promise<string> {
  const base = localNodeBase();
  if ((await execa(docker, ['image', 'inspect', base], { reject: false })).exitCode === 0) return base;
  const node = await realpath(process.execPath);
  const npm = path.join(path.dirname(node), '..', 'lib', 'node_modules', 'npm');
  if (!existsSync(path.join(npm, 'bin', 'npm-cli.js'))) throw new PreflightError(`npm was not found next to node (${npm})`, { hint: 'install node with its npm, or pass --base with an image that has node and npm' });
  const sh = await realpath('/bin/sh');
  const env = await realpath('/usr/bin/env');
  step(`making ${base} from this machine's node ${process.version}, npm and ${sh}`);
  const rootfs = path.join(cacheDir, 'controller-image', `.node-base-${process.pid}-${randomBytes(3).toString('hex')}`);
  try {
    const put = async (to: string, from: string): Promise<void> => {
      const target = path.join(rootfs, to);
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(from, target);
      await chmod(target, 0o755);
    };
    await put('usr/local/bin/node', node);
    await put('bin/sh', sh);
    await put('usr/bin/env', env);
    for (const lib of await libraries(execa, [node, sh, env])) await put(lib.slice(1), lib);
    await cp(npm, path.join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true, dereference: true });
    await symlink('../lib/node_modules/npm/bin/npm-cli.js', path.join(rootfs, 'usr/local/bin/npm'));
    // This machine's trust store: npm ci in the build must trust what the host's npm trusts (a TLS-inspecting proxy's CA).
    const caBundle = '/etc/ssl/certs/ca-certificates.crt';
    const withCa = existsSync(caBundle);
    if (withCa) await put(caBundle.slice(1), caBundle);
    for (const dir of ['tmp', 'root']) await mkdir(path.join(rootfs, dir), { recursive: true, mode: dir === 'tmp' ? 0o1777 : 0o700 });
    await chmod(path.join(rootfs, 'tmp'), 0o1777);
    const changes = ['ENV PATH=/usr/local/bin:/usr/bin:/bin', 'ENV HOME=/root', ...(withCa ? [`ENV NODE_EXTRA_CA_CERTS=${caBundle}`] : [])];
    await must(execa, 'bash', ['-c', 'f="$1" d="$2" i="$3"; shift 3; tar --numeric-owner -C "$f" -c . | "$d" import "$@" - "$i"', 'import', rootfs, docker, base, ...changes.flatMap((c) => ['--change', c])], signal);
  } finally {
    await rm(rootfs, { recursive: true, force: true });
  }
  return base;
}

/** Builds the controller image from the Dockerfile on a local base; returns the image and base used. */
export async function buildControllerImage(options: ControllerImageOptions): Promise<{ image: string; base: string }> {
  const execa = await loadExeca();
  const docker = options.docker ?? 'docker';
  const step = options.onStep ?? ((): void => undefined);
  if (!existsSync(path.join(options.root, 'dist', 'src', 'kwok', 'main.js'))) {
    throw new PreflightError(`${options.root} has no build (dist/)`, { hint: 'run `npm run build` in the checkout first' });
  }
  const base = options.base ?? (await ensureNodeBase(execa, docker, options.cacheDir, step, options.signal));
  step(`docker build ${options.image} on ${base}`);
  await must(execa, docker, controllerBuildArgs(options.root, options.image, base), options.signal, (line) => step(line));
  return { image: options.image, base };
}

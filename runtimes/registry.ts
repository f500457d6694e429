import { PreflightError, UsageError } from '../src/util/errors.js';
import { BinaryRuntime } from './binary/binary-runtime.js';
import { ContainerRuntime, connectEngine, hostDetectEnv } from './container/container-runtime.js';
import type { ContainerDialect, DetectEnv } from './container/dialect.js';
import { DOCKER } from './docker.js';
import { NERDCTL } from './nerdctl.js';
import { PODMAN } from './podman.js';
import { KindRuntime } from './kind/kind-runtime.js';
import type { Runtime } from './runtime.js';
import { loadExeca } from '../src/exec/load-execa.js';

const FACTORIES: Record<string, () => Runtime> = {
  binary: () => new BinaryRuntime(),
  docker: () => new ContainerRuntime(DOCKER),
  podman: () => new ContainerRuntime(PODMAN),
  nerdctl: () => new ContainerRuntime(NERDCTL),
  kind: () => new KindRuntime(),
};

/** Runtimes kwokctl knows that kwokts does not have; accepted by name so the error can say so. */
const PLANNED = ['kind-podman', 'kind-nerdctl', 'lima', 'finch', 'kind-lima', 'kind-finch'];

export const RUNTIME_NAMES = Object.keys(FACTORIES);

export interface DetectOptions {
  detect?: DetectEnv;
  /** Images the cluster would run; an engine that has none of them and cannot pull them is passed over. */
  images?: readonly string[];
  /** Whether an image's registry can be reached (injected for tests). */
  registryReachable?: (host: string) => Promise<boolean>;
  /** Told why an engine was passed over. */
  onSkip?: (runtime: string, reason: string) => void;
  /** kwokctl's options.runtimes: the runtimes to try, in this order (default: docker, podman, nerdctl on Linux, binary). */
  order?: readonly string[];
}

/**
 * kwokctl's order: docker, podman, nerdctl (Linux), then binary, which is always there. An
 * engine counts when it answers (docker, podman) or its CLI works (podman's service is started
 * on demand, nerdctl has no service) -- and, unlike kwokctl, when it can actually run the
 * cluster: an engine lacking the images with no registry in reach (an air-gapped machine, or
 * this project's CI) would only fail later, so detection moves on to the next runtime and says why.
 */
export async function detectRuntime(options: DetectOptions = {}): Promise<string> {
  const detect = options.detect ?? hostDetectEnv();
  const candidates: Array<[ContainerDialect, () => Promise<boolean>]> = [
    [DOCKER, () => answers(DOCKER, detect)],
    [PODMAN, async () => (await answers(PODMAN, detect)) || (await cliWorks('podman', ['version']))],
    ...(process.platform === 'linux' ? [[NERDCTL, () => cliWorks('nerdctl', ['version'])] as [ContainerDialect, () => Promise<boolean>]] : []),
  ];
  const order = options.order ?? [...candidates.map(([d]) => d.name), 'binary'];
  for (const name of order) {
    if (name === 'binary') return 'binary';
    const candidate = candidates.find(([d]) => d.name === name);
    if (!candidate) {
      options.onSkip?.(name, 'kwokts does not detect it; pass --runtime to use it');
      continue;
    }
    const [dialect, available] = candidate;
    if (!(await available())) continue;
    const reason = await cannotProvideImages(dialect, detect, options);
    if (!reason) return dialect.name;
    options.onSkip?.(dialect.name, reason);
  }
  // kwokctl fails the same way when no runtime of options.runtimes is available.
  throw new PreflightError(`none of the runtimes ${order.join(', ')} (options.runtimes) is available`, { hint: 'start one of them, add binary to options.runtimes, or pass --runtime' });
}

/** Why the engine cannot get the images (the first missing one whose registry is out of reach), or undefined. */
async function cannotProvideImages(dialect: ContainerDialect, detect: DetectEnv, options: DetectOptions): Promise<string | undefined> {
  const images = options.images ?? [];
  if (images.length === 0) return undefined;
  const reachable = options.registryReachable ?? registryAnswers;
  const hosts = new Map<string, Promise<boolean>>();
  for (const image of images) {
    if (await imagePresent(dialect, detect, image)) continue;
    const host = registryHost(image);
    if (!hosts.has(host)) hosts.set(host, reachable(host));
    if (!(await hosts.get(host))) return `image ${image} is not in ${dialect.name} and ${host} cannot be reached`;
  }
  return undefined;
}

async function imagePresent(dialect: ContainerDialect, detect: DetectEnv, image: string): Promise<boolean> {
  if (dialect.transport === 'api') {
    try {
      return await (await connectEngine({ ...dialect, startService: undefined }, detect)).imageExists(image);
    } catch {
      // No API answering (podman's service starts on demand): ask its CLI instead.
    }
  }
  return cliWorks(dialect.cli, ['image', 'inspect', image]);
}

/** The registry an image reference is pulled from, as docker reads references. */
export function registryHost(image: string): string {
  const first = image.split('/')[0]!;
  const hasRegistry = image.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry || first === 'docker.io') return 'registry-1.docker.io';
  return first;
}

/** A TCP connection to the registry's port 443 within 2 s: enough to tell online from air-gapped. */
async function registryAnswers(host: string): Promise<boolean> {
  const { connect } = await import('node:net');
  const [name, port] = host.includes(':') ? [host.split(':')[0]!, Number(host.split(':')[1])] : [host, 443];
  return new Promise((resolve) => {
    const socket = connect({ host: name, port, timeout: 2000 });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

async function answers(dialect: ContainerDialect, detect: DetectEnv): Promise<boolean> {
  try {
    await connectEngine({ ...dialect, startService: undefined }, detect);
    return true;
  } catch {
    return false;
  }
}

async function cliWorks(cli: string, args: string[]): Promise<boolean> {
  try {
    const execa = await loadExeca();
    const result = await execa(cli, args, { reject: false, timeout: 10_000 });
    return result.exitCode === 0;
  } catch {
    return false;
  }
}

export function createRuntime(name: string): Runtime {
  const factory = FACTORIES[name];
  if (factory) return factory();
  if (PLANNED.includes(name)) {
    throw new UsageError(`runtime ${name} is not supported`, { hint: `use one of: ${RUNTIME_NAMES.join(', ')}` });
  }
  throw new UsageError(`unknown runtime ${JSON.stringify(name)}`, { hint: `one of: ${RUNTIME_NAMES.join(', ')}` });
}

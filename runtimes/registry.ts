import { execa } from 'execa';
import { UsageError } from '../src/util/errors.js';
import { BinaryRuntime } from './binary/binary-runtime.js';
import { ContainerRuntime, connectEngine, hostDetectEnv } from './container/container-runtime.js';
import type { ContainerDialect, DetectEnv } from './container/dialect.js';
import { DOCKER } from './docker.js';
import { NERDCTL } from './nerdctl.js';
import { PODMAN } from './podman.js';
import { KindRuntime } from './kind/kind-runtime.js';
import type { Runtime } from './runtime.js';

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

/**
 * kwokctl's order: docker, podman, nerdctl (Linux), then binary, which is always there. An
 * engine counts when it answers (docker, podman) or its CLI works (podman's service is started
 * on demand, nerdctl has no service).
 */
export async function detectRuntime(detect: DetectEnv = hostDetectEnv()): Promise<string> {
  if (await answers(DOCKER, detect)) return 'docker';
  if ((await answers(PODMAN, detect)) || (await cliWorks('podman', ['version']))) return 'podman';
  if (process.platform === 'linux' && (await cliWorks('nerdctl', ['version']))) return 'nerdctl';
  return 'binary';
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
  const result = await execa(cli, args, { reject: false, timeout: 10_000 });
  return result.exitCode === 0;
}

export function createRuntime(name: string): Runtime {
  const factory = FACTORIES[name];
  if (factory) return factory();
  if (PLANNED.includes(name)) {
    throw new UsageError(`runtime ${name} is not supported`, { hint: `use one of: ${RUNTIME_NAMES.join(', ')}` });
  }
  throw new UsageError(`unknown runtime ${JSON.stringify(name)}`, { hint: `one of: ${RUNTIME_NAMES.join(', ')}` });
}

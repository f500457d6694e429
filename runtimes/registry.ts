import { UsageError } from '../src/util/errors.js';
import { BinaryRuntime } from './binary/binary-runtime.js';
import type { Runtime } from './runtime.js';

const FACTORIES: Record<string, () => Runtime> = {
  binary: () => new BinaryRuntime(),
};

/** Container runtimes kwokctl knows; accepted by name so the error can say they are coming. */
const PLANNED = ['docker', 'podman', 'nerdctl', 'kind', 'kind-podman', 'kind-nerdctl', 'lima', 'finch'];

export const RUNTIME_NAMES = Object.keys(FACTORIES);

/** Auto-detection order is kwokctl's (docker, podman, nerdctl, binary); only binary exists so far. */
export function detectRuntime(): string {
  return 'binary';
}

export function createRuntime(name: string): Runtime {
  const factory = FACTORIES[name];
  if (factory) return factory();
  if (PLANNED.includes(name)) {
    throw new UsageError(`runtime ${name} is not supported yet`, { hint: 'use --runtime=binary' });
  }
  throw new UsageError(`unknown runtime ${JSON.stringify(name)}`, { hint: `one of: ${RUNTIME_NAMES.join(', ')}` });
}

import type { Runtime } from './runtime.js';

/**
 * A runtime by name, loading only its own modules: the binary runtime (the common case, and what
 * `delete cluster` on the CLI's fast path needs) without the container engines, kind and the
 * artifact code the registry imports. Every other name, and every error, is the registry's.
 */
export async function loadRuntime(name: string): Promise<Runtime> {
  if (name === 'binary') return new (await import('./binary/binary-runtime.js')).BinaryRuntime();
  return (await import('./registry.js')).createRuntime(name);
}

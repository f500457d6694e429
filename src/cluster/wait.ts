import type { Component, ComponentName } from '../components/index.js';
import { TimeoutError } from '../util/errors.js';
import type { ClusterPaths } from '../naming/naming.js';
import { probeOnce } from './probe.js';

export interface WaitOptions {
  deadline: number;
  signal?: AbortSignal;
  intervalMs?: number;
  /** Called when a component's process is found dead, to fail fast instead of timing out. */
  isAlive?: (name: ComponentName) => Promise<boolean>;
  onReady?: (name: ComponentName, elapsedMs: number) => void;
}

export class ComponentExitedError extends Error {
  constructor(readonly component: ComponentName) {
    super(`${component} exited`);
  }
}

/**
 * Without a probe, running is all we can know: a component counts as ready once it has kept
 * running for a second, so one that dies during start-up fails the wait instead of passing it.
 */
const UNPROBED_SETTLE_MS = 1000;

async function stillRunning(name: ComponentName, started: number, options: WaitOptions): Promise<{ ok: boolean; detail: string }> {
  if (options.isAlive && !(await options.isAlive(name))) return { ok: false, detail: 'not running' };
  return Date.now() - started >= UNPROBED_SETTLE_MS ? { ok: true, detail: 'running' } : { ok: false, detail: 'starting' };
}

/** Poll every component's readiness endpoint until all answer 200, or the deadline passes. */
export async function waitForComponents(components: readonly Component[], paths: ClusterPaths, options: WaitOptions): Promise<void> {
  const started = Date.now();
  const pending = new Map(components.map((c) => [c.name, c]));
  const last = new Map<ComponentName, string>();
  const interval = options.intervalMs ?? 100;
  while (pending.size > 0) {
    options.signal?.throwIfAborted();
    await Promise.all(
      [...pending.values()].map(async (c) => {
        const result = c.probe ? await probeOnce(c.probe, paths, 1000) : await stillRunning(c.name, started, options);
        last.set(c.name, result.detail);
        if (result.ok) {
          pending.delete(c.name);
          options.onReady?.(c.name, Date.now() - started);
        } else if (options.isAlive && !(await options.isAlive(c.name))) {
          throw new ComponentExitedError(c.name);
        }
      }),
    );
    if (pending.size === 0) return;
    if (Date.now() >= options.deadline) {
      const detail = [...pending.keys()].map((n) => `${n} (${last.get(n) ?? 'no answer'})`).join(', ');
      throw new TimeoutError(`not ready before the deadline: ${detail}`, {
        hint: 'look at `kwokts logs <component>`, or give it longer with --wait',
      });
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

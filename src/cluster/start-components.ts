import { startGroups, type Component, type ComponentName } from '../components/index.js';
import type { Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import type { ClusterPaths } from '../naming/naming.js';
import { waitForComponents, type WaitOptions } from './wait.js';

export const DEFAULT_READY_TIMEOUT_MS = 120_000;

export type WaitFor = 'all' | 'apiserver';

export interface StartComponentsOptions {
  paths: ClusterPaths;
  /** How long to wait for readiness; 0 means the default (2m). */
  waitMs: number;
  /**
   * What to wait for once everything is started: every component (the default), or only until
   * kube-apiserver serves, which is all kwokctl waits for when its --wait is 0.
   */
  waitFor?: WaitFor;
  signal?: AbortSignal;
  onReady?: (name: ComponentName, elapsedMs: number) => void;
  /** One readiness check; tests replace it. */
  probe?: WaitOptions['probe'];
}

/**
 * When a component may start: once the links it cannot retry are ready, and the links it retries
 * but that are busy starting (busyStart) serve; links it retries otherwise need only have been
 * started. Returns the two sets of link names to wait for.
 */
export function startConditions(group: readonly Component[], components: readonly Component[]): { ready: Set<ComponentName>; serving: Set<ComponentName> } {
  const busy = new Set(components.filter((c) => c.busyStart).map((c) => c.name));
  const ready = new Set<ComponentName>();
  const serving = new Set<ComponentName>();
  for (const c of group) {
    for (const link of c.links) {
      if (!c.retriesLinks) ready.add(link);
      else if (busy.has(link)) serving.add(link);
    }
  }
  for (const name of ready) serving.delete(name);
  return { ready, serving };
}

/**
 * Start components in dependency order and wait until every one is ready: create and
 * `start cluster` share it. Each group starts once its start conditions hold (startConditions);
 * a component whose process dies while we wait fails fast (ComponentExitedError) instead of
 * running into the deadline. Components that already run are left alone by the runtime.
 */
export async function startComponents(runtime: Runtime, components: readonly Component[], ctx: RuntimeContext, options: StartComponentsOptions): Promise<void> {
  const dryRun = ctx.executor.dryRun;
  const waitOptions: WaitOptions = {
    deadline: Date.now() + (options.waitMs || DEFAULT_READY_TIMEOUT_MS),
    ...(options.signal ? { signal: options.signal } : {}),
    isAlive: async (name: ComponentName) => (await runtime.status(components.filter((c) => c.name === name), ctx))[0]?.state === 'running',
    ...(options.onReady ? { onReady: options.onReady } : {}),
    ...(options.probe ? { probe: options.probe } : {}),
  };
  const ready = new Set<ComponentName>();
  const serving = new Set<ComponentName>();
  const wait = async (names: ReadonlySet<ComponentName>, until: 'ready' | 'serving'): Promise<void> => {
    const done = until === 'ready' ? ready : serving;
    const todo = components.filter((c) => names.has(c.name) && !done.has(c.name) && !ready.has(c.name));
    if (dryRun || todo.length === 0) return;
    const found = await waitForComponents(todo, options.paths, { ...waitOptions, until });
    for (const c of todo) serving.add(c.name);
    for (const name of found) ready.add(name);
  };
  for (const group of startGroups(components)) {
    options.signal?.throwIfAborted();
    const links = startConditions(group, components);
    await wait(links.ready, 'ready');
    await wait(links.serving, 'serving');
    await runtime.start(group, ctx);
  }
  const last = options.waitFor === 'apiserver' ? components.filter((c) => c.name === 'kube-apiserver') : components;
  await wait(new Set(last.map((c) => c.name)), 'ready');
}

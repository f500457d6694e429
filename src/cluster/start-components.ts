import { startGroups, type Component, type ComponentName } from '../components/index.js';
import type { Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import type { ClusterPaths } from '../naming/naming.js';
import { waitForComponents, type RuntimeView } from './wait.js';

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
}

/**
 * The runtime's word on a component, as waitForComponents asks it: whether it runs, and where the
 * runtime knows (kind: its pod), whether it is ready. Every wait for components passes this, so
 * that one without a probe counts as ready when the runtime says so, not merely after a second.
 */
export function runtimeState(runtime: Runtime, components: readonly Component[], ctx: RuntimeContext): (name: ComponentName) => Promise<RuntimeView> {
  return async (name) => {
    const status = (await runtime.status(components.filter((c) => c.name === name), ctx))[0];
    return { alive: status?.state === 'running', ...(status?.ready === undefined ? {} : { ready: status.ready }) };
  };
}

/** A component's links among `components` (a link to a component the cluster lacks is no one to blame). */
export function linksWithin(components: readonly Component[]): (name: ComponentName) => readonly ComponentName[] {
  const byName = new Map(components.map((c) => [c.name, c]));
  return (name) => (byName.get(name)?.links ?? []).filter((l) => byName.has(l));
}

/**
 * Start components in dependency order and wait until every one is ready: create and
 * `start cluster` share it. Each group starts once the links it cannot retry are ready, and those
 * of its components that start when their links serve (startsWhenLinksServe) answer; a
 * component whose process dies while we wait fails fast (ComponentExitedError) instead of
 * running into the deadline. Components that already run are left alone by the runtime.
 */
export async function startComponents(runtime: Runtime, components: readonly Component[], ctx: RuntimeContext, options: StartComponentsOptions): Promise<void> {
  const dryRun = ctx.executor.dryRun;
  const startedAt = Date.now();
  const waitOptions = {
    deadline: Date.now() + (options.waitMs || DEFAULT_READY_TIMEOUT_MS),
    ...(options.signal ? { signal: options.signal } : {}),
    state: runtimeState(runtime, components, ctx),
    linksOf: linksWithin(components),
    // Since the first start, not since the wait that saw it (there are several).
    ...(options.onReady ? { onReady: (name: ComponentName) => options.onReady!(name, Date.now() - startedAt) } : {}),
  };
  const ready = new Set<ComponentName>();
  const waitReady = async (names: ReadonlySet<ComponentName>): Promise<void> => {
    const todo = components.filter((c) => names.has(c.name) && !ready.has(c.name));
    if (dryRun || todo.length === 0) return;
    await waitForComponents(todo, options.paths, waitOptions);
    for (const c of todo) ready.add(c.name);
  };
  // In a real cluster (kind) its own node runs kcm and the scheduler: there is no start-up of
  // ours to keep out of the apiserver's way, and the controller image can load while it starts.
  const staged = runtime.info().mode !== 'cluster';
  const serving = new Set<ComponentName>();
  const waitServing = async (names: ReadonlySet<ComponentName>): Promise<void> => {
    const todo = components.filter((c) => names.has(c.name) && !ready.has(c.name) && !serving.has(c.name));
    if (dryRun || todo.length === 0) return;
    // A link that is ready by now is reported as such and counts as ready later.
    await waitForComponents(todo, options.paths, { ...waitOptions, untilAnswers: true, onReady: (name) => (ready.add(name), waitOptions.onReady?.(name)) });
    for (const c of todo) serving.add(c.name);
  };
  for (const group of startGroups(components)) {
    options.signal?.throwIfAborted();
    await waitReady(new Set(group.filter((c) => !c.retriesLinks).flatMap((c) => c.links)));
    if (staged) await waitServing(new Set(group.filter((c) => c.retriesLinks && c.startsWhenLinksServe).flatMap((c) => c.links)));
    await runtime.start(group, ctx);
  }
  const last = options.waitFor === 'apiserver' ? components.filter((c) => c.name === 'kube-apiserver') : components;
  await waitReady(new Set(last.map((c) => c.name)));
}

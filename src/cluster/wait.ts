import type { Component, ComponentName } from '../components/index.js';
import { TimeoutError } from '../util/errors.js';
import type { ClusterPaths } from '../naming/naming.js';
import { probeOnce, type ProbeResult } from './probe.js';
import { mark } from '../util/timeline.js';

export interface WaitOptions {
  deadline: number;
  signal?: AbortSignal;
  intervalMs?: number;
  /**
   * What the runtime says of a component: whether its process runs (a dead one fails the wait at
   * once instead of at the deadline) and, where the runtime can tell, whether it is ready.
   */
  state?: (name: ComponentName) => Promise<RuntimeView>;
  onReady?: (name: ComponentName, elapsedMs: number) => void;
  /** One readiness check; tests replace it. */
  probe?: typeof probeOnce;
  /** Done once each component answers its probe at all (not ready yet is enough): it serves. */
  untilAnswers?: boolean;
  /**
   * The cluster's components a component links to (it needs them). One that does not answer may
   * be waiting for a link that died (an apiserver whose etcd could not start): the wait then
   * fails naming the link, the first to fail, not the dependent that gives up on it later.
   */
  linksOf?: (name: ComponentName) => readonly ComponentName[];
}

export interface RuntimeView {
  alive: boolean;
  /** Known only to some runtimes (kind: the component's pod); it then decides for a component without a probe. */
  ready?: boolean;
}

export class ComponentExitedError extends Error {
  constructor(readonly component: ComponentName) {
    super(`${component} exited`);
  }
}

/** The deadline passed with these components still not ready: callers add what their logs say. */
export class NotReadyError extends TimeoutError {
  constructor(readonly pending: readonly ComponentName[], detail: string) {
    super(`not ready before the deadline: ${detail}`, { hint: 'look at `kwokts logs <component>`, or give it longer with --wait' });
  }
}

/**
 * Without a probe, the runtime's word is all we have: ready when it says so (kind's pods), else
 * once the component has kept running for a second, so one that dies during start-up fails the
 * wait instead of passing it.
 */
const UNPROBED_SETTLE_MS = 1000;

async function stillRunning(name: ComponentName, started: number, options: WaitOptions): Promise<ProbeResult & { alive?: boolean }> {
  const view = options.state ? await options.state(name) : undefined;
  if (view && !view.alive) return { ok: false, detail: 'not running', alive: false };
  if (view?.ready !== undefined) return view.ready ? { ok: true, detail: 'ready' } : { ok: false, detail: 'not ready', alive: true };
  const known = view ? { alive: true } : {};
  return Date.now() - started >= UNPROBED_SETTLE_MS ? { ok: true, detail: 'running', ...known } : { ok: false, detail: 'starting', ...known };
}

/**
 * How often the links of a component that runs but does not answer are asked about: each
 * question is a runtime call per link (an engine call for containers), and a component takes a
 * while to answer at start-up anyway. One found dead has its links asked at once.
 */
const LINK_CHECK_MS = 500;

/**
 * The first of `name` and what it needs (its links, as `linksOf` gives them) that is not
 * running: links before the component itself, deepest first, so that a dependent that died for
 * want of a link is not blamed for it. `selfAlive`, when known, saves asking about `name`; with
 * `checkLinks` false, only `name` is looked at unless it is dead.
 */
export async function firstDead(
  name: ComponentName,
  state: (name: ComponentName) => Promise<RuntimeView>,
  linksOf: ((name: ComponentName) => readonly ComponentName[]) | undefined,
  options: { selfAlive?: boolean | undefined; checkLinks?: boolean } = {},
): Promise<ComponentName | undefined> {
  const alive = options.selfAlive ?? (await state(name)).alive;
  if (!linksOf || (alive && options.checkLinks === false)) return alive ? undefined : name;
  const seen = new Set<ComponentName>([name]);
  const walk = async (of: ComponentName): Promise<ComponentName | undefined> => {
    for (const link of linksOf(of)) {
      if (seen.has(link)) continue;
      seen.add(link);
      const deeper = await walk(link);
      if (deeper) return deeper;
      if (!(await state(link)).alive) return link;
    }
    return undefined;
  };
  return (await walk(name)) ?? (alive ? undefined : name);
}

/**
 * How long until the next check: a component that answers but is not ready yet (an apiserver in
 * its post-start hooks) is close to ready, and a check on the connection Node keeps alive costs it
 * little, so it is looked at twice as often as one that does not answer yet.
 */
export function nextCheckIn(result: ProbeResult): number {
  return result.status === undefined ? 100 : 50;
}

/**
 * Poll every component's readiness endpoint until all answer 200, or the deadline passes. Each
 * component is polled on its own, so a slow answer from one (an apiserver busy starting) does not
 * hold back noticing that another is ready, and each is done as soon as it answers.
 */
export async function waitForComponents(components: readonly Component[], paths: ClusterPaths, options: WaitOptions): Promise<void> {
  const started = Date.now();
  const probe = options.probe ?? probeOnce;
  const pending = new Set(components.map((c) => c.name));
  const last = new Map<ComponentName, string>();
  // Once one component has failed the wait, the others stop polling.
  let failed = false;
  const waitOne = async (c: Component): Promise<void> => {
    let linksCheckedAt = 0;
    while (!failed) {
      options.signal?.throwIfAborted();
      const result: ProbeResult & { alive?: boolean } = c.probe ? await probe(c.probe, paths, 1000) : await stillRunning(c.name, started, options);
      if (result.detail !== last.get(c.name)) mark(`${c.name}: ${result.ok ? 'ready' : result.detail}`);
      last.set(c.name, result.detail);
      if (result.ok) {
        pending.delete(c.name);
        options.onReady?.(c.name, Date.now() - started);
        return;
      }
      if (options.untilAnswers && result.status !== undefined) {
        pending.delete(c.name);
        return;
      }
      // A component that answered (not ready yet) runs: only a silent one may have died. Asking
      // the runtime costs a few file reads (binary) or an engine call (containers) each time.
      if (result.status === undefined && options.state) {
        const checkLinks = Date.now() - linksCheckedAt >= LINK_CHECK_MS;
        if (checkLinks) linksCheckedAt = Date.now();
        const dead = await firstDead(c.name, options.state, options.linksOf, { selfAlive: result.alive, checkLinks });
        if (dead) throw new ComponentExitedError(dead);
      }
      if (Date.now() >= options.deadline) {
        const detail = [...pending].map((n) => `${n} (${last.get(n) ?? 'no answer'})`).join(', ');
        throw new NotReadyError([...pending], detail);
      }
      await new Promise((r) => setTimeout(r, options.intervalMs ?? nextCheckIn(result)));
    }
  };
  await Promise.all(
    components.map((c) =>
      waitOne(c).catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    ),
  );
}

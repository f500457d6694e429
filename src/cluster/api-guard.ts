/**
 * The commands that talk to a cluster's apiserver (scale, a k8s-format snapshot's save and
 * restore) run their requests under an ApiGuard, so that a cluster that cannot answer ends them
 * in one line naming the component that is down, not in a hang, a retry loop or a stack.
 *
 * An apiserver whose etcd died (killed, or on a full disk) still accepts requests and answers none
 * of them until its own timeout, which the client then retries: minutes of silence. One that died
 * refuses connections, which the client retries too. So the guard looks at what the apiserver
 * needs (itself and its links, deepest first) before the first request, and again whenever a
 * request has gone unanswered for a while: a component that is not running ends the work at once,
 * named with the line of its log that says why. A component that runs but does not answer (a
 * stopped process, a loaded machine) is not judged here: the command's --timeout ends that wait,
 * and its error then says what does not answer.
 */
import { setMaxListeners } from 'node:events';
import { KubeApiError, type KubeClient } from '../kube/index.js';
import { loadRuntime } from '../../runtimes/load.js';
import type { ComponentState, Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import type { ComponentName, ReadinessProbe } from '../components/index.js';
import { describeFreeSpace, freeBytes, freeSpaceHint, LOW_SPACE_BYTES, saysDiskFull } from '../util/disk-full.js';
import { OperationError, TimeoutError, type KwoktsErrorOptions } from '../util/errors.js';
import { logReason } from './log-tail.js';
import { readContext } from './logs.js';
import { probeOnce, type ProbeResult } from './probe.js';
import type { LoadedCluster } from './record.js';
import { linksWithin } from './start-components.js';
import { firstDead } from './wait.js';

const APISERVER: ComponentName = 'kube-apiserver';

/** A component the apiserver needs that does not run. */
export interface DownComponent {
  name: ComponentName;
  /** exited: it ran and is gone (crashed, killed); stopped: it was not started, or was stopped. */
  state: Exclude<ComponentState, 'running'>;
  /** Every component is stopped: the cluster is, not one component of it. */
  all: boolean;
  /** The line of its log that says why it exited. */
  reason?: string;
  /** The free bytes of the cluster's file system, when it exited with little or none left. */
  free?: number;
}

/** The longest log line an error line quotes: a Go stack trace in a JSON field can run to pages. */
const MAX_REASON = 240;

/**
 * The first component, of the apiserver and what it needs (deepest first), that does not run; or
 * undefined when they all run or the runtime cannot tell (the diagnosis is never what fails).
 */
export async function findDownComponent(cluster: LoadedCluster, runtime: Runtime, ctx: RuntimeContext): Promise<DownComponent | undefined> {
  const { components } = cluster.record;
  if (!components.some((c) => c.name === APISERVER)) return undefined;
  const linksOf = linksWithin(components);
  let states: Map<ComponentName, ComponentState>;
  try {
    // Every component, in one call: whether the whole cluster is stopped is worth saying.
    const statuses = await runtime.status(components, ctx);
    states = new Map(statuses.map((s) => [s.name, s.state]));
  } catch {
    return undefined;
  }
  const stateOf = (name: ComponentName): ComponentState => states.get(name) ?? 'stopped';
  const dead = await firstDead(APISERVER, async (name) => ({ alive: stateOf(name) === 'running' }), linksOf);
  if (!dead) return undefined;
  const state = stateOf(dead) === 'exited' ? 'exited' : 'stopped';
  if (state === 'stopped') return { name: dead, state, all: components.every((c) => stateOf(c.name) === 'stopped') };
  const said = await logReason(runtime, dead, ctx).catch(() => undefined);
  const reason = said && said.length > MAX_REASON ? `${said.slice(0, MAX_REASON - 1)}…` : said;
  // A full disk often takes the component's last words with it (its log is on that disk), or
  // leaves them in terms only an errno table explains: the file system says it plainly.
  const free = await freeBytes(cluster.paths.root);
  return { name: dead, state, all: false, ...(reason ? { reason } : {}), ...(free !== undefined && free < LOW_SPACE_BYTES ? { free } : {}) };
}

/** What is down, in the words of an error line: "etcd of cluster x has exited; its log says: ...". */
export function describeDown(cluster: string, root: string, down: DownComponent): string {
  if (down.state === 'stopped') return down.all ? `cluster ${cluster} is stopped` : `${down.name} of cluster ${cluster} is stopped`;
  const disk = down.free !== undefined ? `, and the file system that holds ${root} ${describeFreeSpace(down.free)}` : '';
  return `${down.name} of cluster ${cluster} has exited${disk}${down.reason ? `; its log says: ${down.reason}` : ''}`;
}

/** What to do about it: free the disk its log names, or read its log; then start it again. */
export function downHint(cluster: LoadedCluster, down: DownComponent): string {
  const start = `\`kwokts --name ${cluster.record.name} start cluster\``;
  if (down.state === 'stopped') return `start it with ${start}`;
  if (down.free !== undefined || saysDiskFull(down.reason)) return freeSpaceHint(cluster.paths.root, `start it again with ${start}`);
  return `read its log with \`kwokts --name ${cluster.record.name} logs ${down.name}\`, then start it again with ${start}`;
}

export interface ApiGuardOptions {
  /** What the command does, the start of its error line ("scale node"). */
  what: string;
  /** The command's own signal (Ctrl-C, --timeout). */
  signal: AbortSignal;
  /** How long a request may go unanswered before the components are looked at. */
  stallMs?: number;
  /** Tests: a runtime of their own instead of the cluster's. */
  runtime?: Runtime;
}

/** How long a request goes unanswered before the guard asks the runtime what runs (a few file reads, or one engine call). */
const DEFAULT_STALL_MS = 1000;

/** How long the apiserver's readiness check may take: a stopped process never answers it. */
const PROBE_TIMEOUT_MS = 2000;

export class ApiGuard {
  private readonly down = new AbortController();
  /** Aborts on the command's signal, or with the error naming a component found down. */
  readonly signal: AbortSignal;
  private readonly inFlight = new Map<number, number>();
  private nextId = 0;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private readonly stallMs: number;
  /** The apiserver's readiness answer at the last look while a request waited. */
  private lastProbe: ProbeResult | undefined;

  private constructor(
    private readonly cluster: LoadedCluster,
    private readonly runtime: Runtime,
    private readonly ctx: RuntimeContext,
    private readonly options: ApiGuardOptions,
  ) {
    this.signal = AbortSignal.any([options.signal, this.down.signal]);
    // Every request in flight listens to it (scale keeps --concurrency of them).
    setMaxListeners(0, this.signal);
    this.stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  }

  /** A guard over `cluster`; fails at once, before any request, when a component the apiserver needs is down. */
  static async open(cluster: LoadedCluster, options: ApiGuardOptions): Promise<ApiGuard> {
    const guard = new ApiGuard(cluster, options.runtime ?? (await loadRuntime(cluster.record.runtime)), readContext(cluster), options);
    const down = await guard.findDown();
    if (down) throw guard.downError(down);
    return guard;
  }

  /** `client`, with every request watched (a watch, which waits by design, is not). */
  watch(client: KubeClient): KubeClient {
    const t = <T>(work: Promise<T>): Promise<T> => this.track(work);
    return {
      list: (ref, options, signal) => t(client.list(ref, options, signal)),
      watch: (ref, options, signal) => client.watch(ref, options, signal),
      get: (ref, target, signal) => t(client.get(ref, target, signal)),
      create: (ref, object, options) => t(client.create(ref, object, options)),
      update: (ref, object) => t(client.update(ref, object)),
      patch: (ref, request) => t(client.patch(ref, request)),
      patchIgnoringAnswer: (ref, request) => t(client.patchIgnoringAnswer(ref, request)),
      updateIgnoringAnswer: (ref, object, subresource) => t(client.updateIgnoringAnswer(ref, object, subresource)),
      delete: (ref, request) => t(client.delete(ref, request)),
      resolve: (apiVersion, kind) => t(client.resolve(apiVersion, kind)),
    };
  }

  /** Any other wait on the apiserver (a kubectl the command runs), watched as a request is. */
  track<T>(work: Promise<T>): Promise<T> {
    const id = this.nextId++;
    this.inFlight.set(id, Date.now());
    // Kept referenced: run() clears it when the work ends, whatever the work's requests do.
    this.timer ??= setInterval(() => this.onTick(), this.stallMs);
    return work.finally(() => {
      this.inFlight.delete(id);
      if (this.inFlight.size === 0) this.stopTimer();
    });
  }

  /**
   * The command's work, ended by the guard's signal even where the work does not listen to it,
   * and its failure said in the user's terms (see explain).
   */
  async run<T>(work: Promise<T>): Promise<T> {
    // Whatever the work does after the guard gave up on it is nobody's to hear.
    work.catch(() => undefined);
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(this.signal.reason);
      if (this.signal.aborted) onAbort();
      else this.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work, aborted]);
    } catch (error) {
      throw await this.explain(error);
    } finally {
      if (onAbort) this.signal.removeEventListener('abort', onAbort);
      this.close();
    }
  }

  /**
   * What the user is told instead of `error`: the component found down; the command's own reason
   * to stop (Ctrl-C as it is, a --timeout with what does not answer); an apiserver that fails or
   * cannot be reached with what is down behind it, or else its own words in one line.
   */
  async explain(error: unknown): Promise<unknown> {
    if (this.down.signal.aborted) return this.down.signal.reason;
    if (this.options.signal.aborted) {
      const reason: unknown = this.options.signal.reason;
      return reason instanceof TimeoutError ? this.diagnoseTimeout(reason) : reason;
    }
    const api = apiErrorIn(error);
    if (api && (api.status === 0 || api.status >= 500)) {
      const down = await this.findDown();
      if (down) return this.downError(down, { cause: error });
    }
    if (error instanceof KubeApiError) {
      const reach = error.status === 0 ? `cannot reach kube-apiserver of cluster ${this.cluster.record.name}: ` : '';
      return new OperationError(`${this.options.what}: ${reach}${error.message}`, {
        ...(error.status === 0 ? { hint: `see what runs with \`kwokts --name ${this.cluster.record.name} get components -o wide\`` } : {}),
        cause: error,
      });
    }
    return error;
  }

  close(): void {
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private onTick(): void {
    if (this.checking || this.signal.aborted) return;
    const now = Date.now();
    let stalled = false;
    for (const started of this.inFlight.values()) if (now - started >= this.stallMs) stalled = true;
    if (!stalled) return;
    this.checking = true;
    void this.check().finally(() => (this.checking = false));
  }

  /**
   * One look while a request waits: a component down ends the work; else the apiserver's own
   * answer is kept, so that a --timeout passing later can say what did not answer without asking
   * (and waiting for) it then.
   */
  private async check(): Promise<void> {
    const down = await this.findDown();
    if (down) {
      if (!this.signal.aborted) this.down.abort(this.downError(down));
      return;
    }
    const probe = this.apiserverProbe();
    if (probe) this.lastProbe = await probeOnce(probe, this.cluster.paths, PROBE_TIMEOUT_MS);
  }

  private apiserverProbe(): ReadinessProbe | undefined {
    return this.cluster.record.components.find((c) => c.name === APISERVER)?.probe;
  }

  private findDown(): Promise<DownComponent | undefined> {
    return findDownComponent(this.cluster, this.runtime, this.ctx);
  }

  private downError(down: DownComponent, options: KwoktsErrorOptions = {}): OperationError {
    return new OperationError(`${this.options.what}: ${describeDown(this.cluster.record.name, this.cluster.paths.root, down)}`, { hint: downHint(this.cluster, down), ...options });
  }

  /** The deadline's error, saying what was down or did not answer when it passed. */
  private async diagnoseTimeout(timeout: TimeoutError): Promise<TimeoutError> {
    const name = this.cluster.record.name;
    const down = await this.findDown();
    if (down) return new TimeoutError(`${timeout.message}: ${describeDown(name, this.cluster.paths.root, down)}`, { hint: downHint(this.cluster, down), cause: timeout });
    const apiserver = this.apiserverProbe();
    if (!apiserver) return timeout;
    const probe = this.lastProbe ?? (await probeOnce(apiserver, this.cluster.paths, PROBE_TIMEOUT_MS));
    if (probe.ok) return timeout;
    const state = probe.status === undefined ? `does not answer (${probe.detail})` : `is not ready (${probe.detail})`;
    return new TimeoutError(`${timeout.message}: kube-apiserver of cluster ${name} ${state}`, {
      hint: `look at \`kwokts --name ${name} logs kube-apiserver\` and \`kwokts --name ${name} get components -o wide\``,
      cause: timeout,
    });
  }
}

/** The API error a failure is or wraps (scale words a refused create in its own terms). */
function apiErrorIn(error: unknown): KubeApiError | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof KubeApiError) return e;
  }
  return undefined;
}

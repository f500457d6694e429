/**
 * Components as containers on a per-cluster network (docker, podman, nerdctl): one adapter, the
 * engines' differences in a ContainerDialect. Every change goes through the Executor as the
 * engine's command line, so --dry-run prints `docker network create …`, `docker create …`.
 */
import { homedir } from 'node:os';
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { CLUSTER_LABEL, runtimeObjectName } from '../../src/naming/naming.js';
import { startGroups, type Component, type ComponentName, type ComponentPort } from '../../src/components/index.js';
import { ExternalCommandError, KwoktsError, PreflightError, UsageError } from '../../src/util/errors.js';
import { commandFailed } from '../../src/util/output-tail.js';
import { shellJoin } from '../../src/exec/shell-quote.js';
import type { ComponentStatus, LogOptions, PortEndpoint, Runtime, RuntimeContext, RuntimeInfo, StopOptions } from '../runtime.js';
import { ApiEngine } from './api-engine.js';
import { CliEngine } from './cli-engine.js';
import { buildContainerSpec, clusterLabels } from './container-spec.js';
import { describeEndpoint, type ContainerDialect, type DetectEnv } from './dialect.js';
import type { ContainerEngine, ContainerState } from './engine.js';
import { renderCommand, type ContainerOp } from './operations.js';
import { AbsentEngine } from './absent-engine.js';

/**
 * kwokctl stops its containers with `--time=0`. Nothing in a simulated cluster needs a graceful
 * stop: etcd's write-ahead log survives a kill, and everything else is rebuilt from etcd.
 */
const STOP_GRACE_MS = 0;

export function hostDetectEnv(env: NodeJS.ProcessEnv = process.env): DetectEnv {
  return { env, uid: process.getuid?.() ?? 0, home: safeHome(), exists: existsSync };
}

function safeHome(): string {
  try {
    return homedir();
  } catch {
    return '';
  }
}

/**
 * Find an engine that answers: the first endpoint whose ping succeeds, else the service started
 * on demand, else a PreflightError listing what was tried.
 */
export async function connectEngine(dialect: ContainerDialect, detect: DetectEnv = hostDetectEnv()): Promise<ContainerEngine> {
  if (dialect.transport === 'cli') {
    const engine = new CliEngine(dialect, dialect.hints);
    await engine.ping();
    return engine;
  }
  const tried: string[] = [];
  for (const endpoint of dialect.endpoints(detect)) {
    // A socket file that is not there cannot answer; asking would cost loading dockerode.
    const absent = 'socketPath' in endpoint && !existsSync(endpoint.socketPath);
    if (!absent) {
      const engine = await ApiEngine.open(endpoint, dialect.name, { libpodApi: dialect.libpodApi });
      try {
        await engine.ping();
        return engine;
      } catch {
        // tried below
      }
    }
    tried.push(describeEndpoint(endpoint));
  }
  const started = await dialect.startService?.(detect);
  if (started) {
    const engine = await ApiEngine.open(started, dialect.name, { libpodApi: dialect.libpodApi });
    await engine.ping();
    return engine;
  }
  throw new PreflightError(`${dialect.name} is not running or not installed (tried ${tried.join(', ') || 'no endpoint'})`, {
    hint: `${dialect.hints.start}; or choose another --runtime`,
  });
}

export class ContainerRuntime implements Runtime {
  private engine: Promise<ContainerEngine> | undefined;
  /** start() runs once per start group; the network is ensured by the first. */
  private networkEnsured = false;

  constructor(
    private readonly dialect: ContainerDialect,
    private readonly connect: () => Promise<ContainerEngine> = () => connectEngine(dialect),
  ) {}

  info(): RuntimeInfo {
    return { name: this.dialect.name, mode: 'container' };
  }

  /**
   * Under dry-run an engine that is not there reads as empty (nothing exists yet), so the plan
   * can still be printed on a machine without it.
   */
  private async engineFor(ctx: RuntimeContext): Promise<ContainerEngine> {
    this.engine ??= this.connect().then((engine) => guardReads(engine, this.dialect)).catch((error: unknown) => {
      if (ctx.executor.dryRun && error instanceof KwoktsError) return new AbsentEngine();
      this.engine = undefined;
      throw error;
    });
    return this.engine;
  }

  private async apply(ctx: RuntimeContext, op: ContainerOp): Promise<void> {
    const engine = await this.engineFor(ctx);
    const progress = op.op === 'pull' && !ctx.quietPull ? (line: string) => ctx.logger.info(line) : undefined;
    const argv = renderCommand(op, this.dialect);
    const perform = async (): Promise<void> => {
      try {
        await engine.apply(op, progress);
      } catch (error) {
        if (error instanceof KwoktsError) throw error;
        // The engine's refusal, said as the command it amounts to (what the user would rerun).
        const message = ((error as Error).message ?? String(error)).trim();
        throw commandFailed(argv, `${op.op === 'create' ? `${this.dialect.cli} create --name=${op.spec.name} …` : shellJoin(argv)} failed: ${message.split('\n')[0]}`, message, {
          cause: error,
          hint: `${this.dialect.name} refused it: its own log says why (it must be able to run containers here)`,
        });
      }
    };
    // Dry-run prints it as kwokctl does: engine commands one word per line, pulls on one line.
    await ctx.executor.call({ argv, perform, dryRunResult: undefined, wordPerLine: op.op !== 'pull' });
  }

  async check(ctx: RuntimeContext): Promise<void> {
    const engine = await this.engineFor(ctx);
    await this.checkNetwork(engine, ctx);
    // A create starts from nothing: containers of an earlier cluster of this name (its directory
    // deleted, its create killed) would be taken for this one's by start(), and run on that
    // cluster's ports and files; they may be the user's, so they are named, never removed.
    const left = await engine.listByLabel('container', CLUSTER_LABEL, ctx.cluster);
    if (left.length > 0) {
      throw new PreflightError(`${this.dialect.name} still has ${left.length === 1 ? 'a container' : 'containers'} of an earlier cluster named ${ctx.cluster} that kwokts has no record of: ${left.join(', ')}`, {
        hint: `remove ${left.length === 1 ? 'it' : 'them'} (\`${this.dialect.cli} rm -f ${left.join(' ')}\`) or choose another --name`,
      });
    }
  }

  /** The cluster's network, when it exists, must be this cluster's. */
  private async checkNetwork(engine: ContainerEngine, ctx: RuntimeContext): Promise<void> {
    const name = runtimeObjectName(ctx.cluster);
    const network = await engine.inspectNetwork(name);
    if (network && network.labels[CLUSTER_LABEL] !== ctx.cluster) {
      throw new PreflightError(`${this.dialect.name} network ${name} already exists and does not belong to cluster ${ctx.cluster}`, {
        hint: `remove it (\`${this.dialect.cli} network rm ${name}\`) or choose another --name`,
      });
    }
  }

  async start(components: readonly Component[], ctx: RuntimeContext): Promise<void> {
    const engine = await this.engineFor(ctx);
    await this.ensureNetwork(engine, ctx);
    // Links may point at components of earlier start groups.
    const present = new Set<string>((ctx.clusterComponents ?? components).map((c) => c.name));
    const owner = components.some((c) => c.runAsFileOwner) ? await this.fileOwner(engine) : undefined;
    const all = (ctx.clusterComponents ?? components).map((c) => c.name);
    const subnet = this.dialect.pinAddresses ? (await engine.inspectNetwork(runtimeObjectName(ctx.cluster)))?.subnet : undefined;
    for (const component of components) {
      const place = all.indexOf(component.name);
      const ip = subnet && place >= 0 ? hostAddress(subnet, 2 + place) : undefined;
      const spec = { ...buildContainerSpec(component, ctx.cluster, present, owner), ...(ip ? { ip } : {}) };
      const state = await this.owned(engine, spec.name, ctx);
      if (state?.status === 'running' || state?.status === 'restarting') continue;
      if (!state) {
        await this.ensureImage(engine, ctx, component);
        await this.apply(ctx, { op: 'create', spec });
      }
      await this.apply(ctx, { op: 'start', name: spec.name });
    }
  }

  /**
   * The container user that owns the cluster's files (keys 0600, data 0700): the host user's
   * uid:gid under a rootful engine (ids are the host's), 0:0 under a rootless one (container
   * root is the host user who runs the engine).
   */
  private async fileOwner(engine: ContainerEngine): Promise<string> {
    if (await engine.rootless()) return '0:0';
    return `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
  }

  private async ensureNetwork(engine: ContainerEngine, ctx: RuntimeContext): Promise<void> {
    if (this.networkEnsured) return;
    await this.checkNetwork(engine, ctx);
    const name = runtimeObjectName(ctx.cluster);
    if (!(await engine.inspectNetwork(name))) {
      await this.apply(ctx, { op: 'network-create', name, labels: clusterLabels(ctx.cluster, this.dialect.networkLabels(ctx.cluster)) });
    }
    // Components reach each other by container name; without DNS the apiserver would only fail
    // later with "lookup kwok-<name>-etcd: no such host". (Nothing to read in a dry run.)
    const network = await engine.inspectNetwork(name);
    if (network?.dns === false) {
      throw new PreflightError(`${this.dialect.name} network ${name} has no DNS, so the cluster's containers cannot find each other by name`, {
        hint: this.dialect.hints.dns ?? `give ${this.dialect.name}'s networks DNS, or choose another --runtime`,
      });
    }
    this.networkEnsured = true;
  }

  /** A local image is used as it is; a missing one is pulled (with progress unless --quiet-pull). */
  private async ensureImage(engine: ContainerEngine, ctx: RuntimeContext, component: Component): Promise<void> {
    const image = component.image!;
    if (await engine.imageExists(image)) return;
    try {
      await this.apply(ctx, { op: 'pull', image });
    } catch (error) {
      const reason = error instanceof ExternalCommandError ? error.output : (error as Error).message;
      throw new PreflightError(`image ${image} of ${component.name} is not present and could not be pulled: ${reason.split('\n')[0]}`, {
        hint: `load it into ${this.dialect.name} (\`${this.dialect.cli} load\`/\`${this.dialect.cli} import\`), or pass --${component.name}-image`,
        cause: error,
      });
    }
  }

  /** The container of that name, refusing one that is not this cluster's. */
  private async owned(engine: ContainerEngine, name: string, ctx: RuntimeContext): Promise<ContainerState | undefined> {
    const state = await engine.inspectContainer(name);
    if (state && state.labels[CLUSTER_LABEL] !== ctx.cluster) {
      throw new PreflightError(`a ${this.dialect.name} container named ${name} exists and does not belong to cluster ${ctx.cluster}`, {
        hint: `remove it (\`${this.dialect.cli} rm -f ${name}\`) or choose another --name`,
      });
    }
    return state;
  }

  async stop(components: readonly Component[], ctx: RuntimeContext, options: StopOptions = {}): Promise<void> {
    const engine = await this.engineFor(ctx);
    const timeoutSeconds = Math.ceil((options.graceMs ?? STOP_GRACE_MS) / 1000);
    for (const group of startGroups(components).reverse()) {
      // A group's containers stop together, but are asked to in list order (kwokctl's, and its
      // dry-run transcript's), however their inspections come back.
      const names = group.map((component) => runtimeObjectName(ctx.cluster, component.name));
      const states = await Promise.all(names.map((name) => engine.inspectContainer(name)));
      const running = names.filter((_, i) => {
        const state = states[i];
        return state !== undefined && state.labels[CLUSTER_LABEL] === ctx.cluster && (state.status === 'running' || state.status === 'restarting');
      });
      await Promise.all(running.map((name) => this.apply(ctx, { op: 'stop', name, timeoutSeconds })));
    }
  }

  async status(components: readonly Component[], ctx: RuntimeContext): Promise<ComponentStatus[]> {
    const engine = await this.engineFor(ctx);
    return Promise.all(
      components.map(async (component): Promise<ComponentStatus> => {
        const state = await engine.inspectContainer(runtimeObjectName(ctx.cluster, component.name));
        if (!state || state.labels[CLUSTER_LABEL] !== ctx.cluster) return { name: component.name, state: 'stopped' };
        return { name: component.name, state: componentState(state), id: state.id };
      }),
    );
  }

  async logs(component: ComponentName, ctx: RuntimeContext, out: Writable, options: LogOptions): Promise<void> {
    const engine = await this.engineFor(ctx);
    await engine.logs(runtimeObjectName(ctx.cluster, component), out, options);
  }

  /**
   * Every declared port is published on 127.0.0.1 at its host port (buildContainerSpec), so the
   * host reaches it there, with no helper container (kwokctl runs one on the cluster network and
   * `nc` per connection). A port that is not declared is not published: nothing to reach.
   */
  endpoint(component: Component, port: ComponentPort | number): PortEndpoint {
    if (typeof port === 'number') {
      throw new UsageError(`port ${port} of ${component.name} is not published by ${this.dialect.name}, so it cannot be forwarded`, {
        hint: `forward one of its ports: ${describePorts(component)}`,
      });
    }
    return { kind: 'address', host: '127.0.0.1', port: port.port };
  }

  /** Everything labelled as the cluster's: containers, then the network, then volumes. */
  async remove(ctx: RuntimeContext): Promise<void> {
    const engine = await this.engineFor(ctx);
    for (const name of await engine.listByLabel('container', CLUSTER_LABEL, ctx.cluster)) await this.apply(ctx, { op: 'rm', name });
    const networks = await engine.listByLabel('network', CLUSTER_LABEL, ctx.cluster);
    // Under dry-run nothing exists yet, but the plan still shows what delete removes.
    if (ctx.executor.dryRun && networks.length === 0) networks.push(runtimeObjectName(ctx.cluster));
    for (const name of networks) await this.apply(ctx, { op: 'network-rm', name });
    for (const name of await engine.listByLabel('volume', CLUSTER_LABEL, ctx.cluster)) await this.apply(ctx, { op: 'volume-rm', name });
  }
}

/** The n-th address of an IPv4 subnet (n=2 after the gateway's .1), or undefined when it does not fit. */
export function hostAddress(cidr: string, n: number): string | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr);
  if (!m || n < 1) return undefined;
  const bits = Number(m[5]);
  const size = 2 ** (32 - bits);
  if (n >= size - 1) return undefined;
  const base = ((Number(m[1]) << 24) >>> 0) + (Number(m[2]) << 16) + (Number(m[3]) << 8) + Number(m[4]);
  const a = (base + n) >>> 0;
  return [a >>> 24, (a >>> 16) & 255, (a >>> 8) & 255, a & 255].join('.');
}

function describePorts(component: Component): string {
  return component.ports.map((p) => `${p.name} (${p.containerPort ?? p.port})`).join(', ') || 'it declares none';
}

/**
 * Containers run with restart policy unless-stopped, so one that dies on its own is restarted by
 * the engine (restarting, or running again); an exited container is one that was stopped. Exit
 * codes cannot tell: kube-controller-manager and kube-scheduler exit non-zero on SIGTERM.
 */
export function componentState(state: ContainerState): ComponentStatus['state'] {
  if (state.status === 'running') return 'running';
  if (state.status === 'restarting') return 'exited';
  return 'stopped';
}

/**
 * Reads that fail for a reason of the engine's (it went away mid-command, it answered nonsense)
 * become one PreflightError instead of an internal error; effects are wrapped where they are applied.
 */
function guardReads(engine: ContainerEngine, dialect: ContainerDialect): ContainerEngine {
  const guard = <A extends unknown[], R>(read: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await read(...args);
    } catch (error) {
      if (error instanceof KwoktsError) throw error;
      throw new PreflightError(`${dialect.name} failed to answer: ${((error as Error).message ?? String(error)).split('\n')[0]}`, { hint: dialect.hints.start, cause: error });
    }
  };
  return {
    ping: guard(() => engine.ping()),
    apply: (op, progress) => engine.apply(op, progress),
    inspectContainer: guard((name: string) => engine.inspectContainer(name)),
    inspectNetwork: guard((name: string) => engine.inspectNetwork(name)),
    imageExists: guard((image: string) => engine.imageExists(image)),
    rootless: guard(() => engine.rootless()),
    listByLabel: guard((kind: 'container' | 'network' | 'volume', key: string, value: string) => engine.listByLabel(kind, key, value)),
    logs: guard((name: string, out: Writable, options: { follow: boolean; signal?: AbortSignal }) => engine.logs(name, out, options)),
  };
}

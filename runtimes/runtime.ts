import type { Writable } from 'node:stream';
import type { Component, ComponentName, ComponentPort } from '../src/components/index.js';
import type { ClusterPaths } from '../src/naming/naming.js';
import type { Executor } from '../src/exec/executor.js';
import type { Logger } from '../src/util/log.js';

/** What a runtime is, so commands ask capabilities instead of comparing runtime names. */
export interface RuntimeInfo {
  name: string;
  /**
   * native: host processes on host ports; container: one container per component on a cluster
   * network, fixed in-container ports published on 127.0.0.1; cluster: a real cluster (kind)
   * with the kwok controller deployed into it.
   */
  mode: 'native' | 'container' | 'cluster';
}

export interface LogOptions {
  follow: boolean;
  /** Ends a follow. */
  signal?: AbortSignal;
}

export interface StopOptions {
  /**
   * How long to wait after SIGTERM before SIGKILL; 0 kills at once. Default: the runtime's own
   * (processes 10s; containers 0, kwokctl's `docker stop --time=0`).
   */
  graceMs?: number;
}

export type ComponentState = 'running' | 'stopped' | 'exited';

export interface ComponentStatus {
  name: ComponentName;
  state: ComponentState;
  /** Process or container id, when there is one. */
  id?: string;
  /**
   * Whether it is ready, where the runtime can tell (kind: its pod's containers are ready);
   * absent where only the component's own probe can (processes, containers).
   */
  ready?: boolean;
}

/** Per-call context: where the cluster lives, how effects are performed, the resolved programs. */
export interface RuntimeContext {
  cluster: string;
  paths: ClusterPaths;
  executor: Executor;
  logger: Logger;
  /** Absolute paths of the programs components run, by artifact name. */
  programs: ReadonlyMap<string, string>;
  signal?: AbortSignal;
  /** Pull missing images without progress output (--quiet-pull). */
  quietPull?: boolean;
  /** Every component of the cluster, for a runtime that makes one object for several (kind's node). */
  clusterComponents?: readonly Component[];
  /** The artifact cache, for a runtime that builds what it cannot pull (kind's node image). */
  cacheDir?: string;
}

/**
 * Where the host reaches one of a component's ports: an address on the host (a host process, or a
 * container's port published on loopback), or a port of a pod inside the cluster (kind), which
 * only a tunnel through the apiserver reaches.
 */
export type PortEndpoint =
  | { kind: 'address'; host: string; port: number }
  | { kind: 'pod'; namespace: string; /** kubectl's form: `pod/<name>` or `deployment/<name>`. */ target: string; port: number };

/**
 * etcd's data where the host's file operations do not reach it (kind: kubeadm's etcd keeps it in
 * the node). An etcd restore then swaps data directories through this instead of renaming the
 * cluster directory's `etcd/`; every step runs while etcd is stopped.
 */
export interface EtcdDataStore {
  /** etcdutl's member flags (--name, --initial-cluster, ...), so the restored data belongs to the running member. */
  memberArgs(ctx: RuntimeContext): Promise<string[]>;
  /**
   * Put the host directory `from` in place of etcd's data, the current data kept aside for
   * putBack, with etcd running: the store stops and restarts etcd around the swap itself, and
   * resolves once etcd answers on the new data.
   */
  replace(from: string, ctx: RuntimeContext): Promise<void>;
  /** The data kept aside back in place, etcd restarted on it (a rollback); none kept: nothing changes. */
  putBack(ctx: RuntimeContext): Promise<void>;
  /** Forget the data kept aside (the restore succeeded). */
  dropKept(ctx: RuntimeContext): Promise<void>;
}

/**
 * One small interface every runtime implements. Readiness, kubeconfig, passthrough and
 * rollback are built once on top of it in src/cluster.
 */
export interface Runtime {
  info(): RuntimeInfo;
  /** Fail with a PreflightError (and a hint) if this runtime cannot run here; changes nothing. */
  check(ctx: RuntimeContext): Promise<void>;
  /** Start the given components (already ordered); skips ones that are running. */
  start(components: readonly Component[], ctx: RuntimeContext): Promise<void>;
  /**
   * Stop the given components, dependents before what they depend on. With a grace period
   * they get SIGTERM first (data kept); with 0 they are killed at once (delete, rollback).
   */
  stop(components: readonly Component[], ctx: RuntimeContext, options?: StopOptions): Promise<void>;
  status(components: readonly Component[], ctx: RuntimeContext): Promise<ComponentStatus[]>;
  /** Write the component's log to `out` (NotFoundError when there is none); follow until the signal aborts. */
  logs(component: ComponentName, ctx: RuntimeContext, out: Writable, options: LogOptions): Promise<void>;
  /**
   * Where the host reaches a component's port: one it declares, or a bare number it does not
   * (UsageError when this runtime cannot reach an undeclared port). Pure: nothing is probed.
   */
  endpoint(component: Component, port: ComponentPort | number, ctx: RuntimeContext): PortEndpoint;
  /** Remove everything the runtime made outside the cluster directory (containers, networks). */
  remove(ctx: RuntimeContext): Promise<void>;
  /** Only where etcd's data is not the cluster directory's `etcd/` (kind). */
  readonly etcdData?: EtcdDataStore;
  /**
   * Only where components run as objects of the cluster (kind's Deployments and static pods):
   * whether `object` is one of those the runtime makes itself, which a k8s-format restore must
   * leave to it. A snapshot holds the component's pod of the day it was saved; created again, it
   * would run a second copy of the component beside the one its Deployment starts (or, for a
   * static pod's mirror, race the kubelet deleting it while the restore pauses that component).
   */
  ownsObject?(object: KubeObjectView): boolean;
}

/** What ownsObject looks at of an object: src/kube's KubeObject has these, and the runtime interface may not import src/kube. */
export interface KubeObjectView {
  kind?: string;
  metadata: { namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
}

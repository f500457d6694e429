import type { Component, ComponentName } from '../src/components/index.js';
import type { ClusterPaths } from '../src/cluster/naming.js';
import type { Executor } from '../src/exec/executor.js';
import type { Logger } from '../src/util/log.js';

/** What a runtime is, so commands ask capabilities instead of comparing runtime names. */
export interface RuntimeInfo {
  name: string;
  /** native: host processes on host ports; container: fixed ports in containers. */
  mode: 'native' | 'container' | 'cluster';
}

export interface StopOptions {
  /** How long to wait after SIGTERM before SIGKILL; 0 kills at once. Default 10s. */
  graceMs?: number;
}

export type ComponentState = 'running' | 'stopped' | 'exited';

export interface ComponentStatus {
  name: ComponentName;
  state: ComponentState;
  /** Process or container id, when there is one. */
  id?: string;
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
}

/**
 * One small interface every runtime implements. Readiness, kubeconfig, passthrough and
 * rollback are built once on top of it in src/cluster.
 */
export interface Runtime {
  info(): RuntimeInfo;
  /** Start the given components (already ordered); skips ones that are running. */
  start(components: readonly Component[], ctx: RuntimeContext): Promise<void>;
  /**
   * Stop the given components, dependents before what they depend on. With a grace period
   * they get SIGTERM first (data kept); with 0 they are killed at once (delete, rollback).
   */
  stop(components: readonly Component[], ctx: RuntimeContext, options?: StopOptions): Promise<void>;
  status(components: readonly Component[], ctx: RuntimeContext): Promise<ComponentStatus[]>;
  /** Path of a file holding the component's log (binary), for `logs` and error reports. */
  logPath(component: ComponentName, ctx: RuntimeContext): string;
  /** Remove everything the runtime made outside the cluster directory (containers, networks). */
  remove(ctx: RuntimeContext): Promise<void>;
}

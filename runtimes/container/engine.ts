import type { Writable } from 'node:stream';
import type { ContainerOp } from './operations.js';

/** What a container's state means for a component. */
export interface ContainerState {
  id: string;
  /** running; created (never started); exited (stopped, or died); restarting (crash loop). */
  status: 'running' | 'created' | 'exited' | 'restarting' | 'other';
  exitCode: number;
  labels: Record<string, string>;
}

export interface NetworkState {
  name: string;
  labels: Record<string, string>;
  /**
   * Whether containers on it find each other by name; undefined where the engine does not say
   * (docker's user-defined networks always do).
   */
  dns?: boolean;
  /** The network's first IPv4 subnet (CIDR), where the engine says. */
  subnet?: string;
}

export interface PullProgress {
  (line: string): void;
}

/**
 * A container engine, reached through its API (docker, podman) or its CLI (nerdctl). Effects go
 * through `apply`, which the runtime wraps in the Executor (so dry-run prints their command
 * lines); everything else only reads.
 */
export interface ContainerEngine {
  /** Fails with a PreflightError saying what to install or start when the engine cannot be used. */
  ping(): Promise<void>;
  apply(op: ContainerOp, progress?: PullProgress): Promise<void>;
  inspectContainer(name: string): Promise<ContainerState | undefined>;
  inspectNetwork(name: string): Promise<NetworkState | undefined>;
  imageExists(image: string): Promise<boolean>;
  /**
   * Whether the engine runs rootless (its `info` lists the security option name=rootless): then
   * container uid 0 is the host user who runs it, and so the owner of the cluster's files.
   */
  rootless(): Promise<boolean>;
  /** Names of containers, networks and volumes carrying the label `key=value`. */
  listByLabel(kind: 'container' | 'network' | 'volume', key: string, value: string): Promise<string[]>;
  logs(name: string, out: Writable, options: { follow: boolean; signal?: AbortSignal }): Promise<void>;
}

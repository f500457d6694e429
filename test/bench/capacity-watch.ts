/**
 * What a capacity run (./capacity.ts) knows of the nodes and their leases, folded from watch
 * events: which nodes are Ready, when each lease was last renewed, and, within a window (a step's
 * growth, its hold), the nodes that left Ready and the leases that were late. Between two samples
 * a node can leave Ready and come back (kube-controller-manager marks it Unknown, node-initialize
 * makes it Ready again at once) and a lease can be renewed late, so both are caught from the events
 * as they come, not only from what a sample finds.
 */
import type { ObjectEventType } from '../../src/kube/client/reflector.js';
import type { KubeObject } from '../../src/kube/client/types.js';
import { isReadyNode } from './controller-load.js';

interface LeaseSpec {
  renewTime?: string;
  leaseDurationSeconds?: number;
}

interface LeaseState {
  renewedMs: number;
  durationS: number;
}

/** One sample: counts now and, for the window open since openWindow(), counts of distinct names. */
export interface TallySample {
  nodes: number;
  ready: number;
  notReady: number;
  leases: number;
  /** Leases past renewTime + leaseDurationSeconds now (what ./soak.ts counts). */
  lateNow: number;
  /** Seconds since the least recent renewal. */
  oldestRenewalS: number;
  /** Nodes without a lease. */
  noLease: number;
  /** The lease durations seen, in seconds, each once. */
  durations: number[];
  /** Leases late since the window opened: renewed after their expiry, or found expired at a sample. */
  lateInWindow: number;
  /** Nodes whose Ready condition left True since the window opened. */
  goneNotReadyInWindow: number;
}

export class CapacityTally {
  private readonly ready = new Map<string, boolean>();
  private readonly leases = new Map<string, LeaseState>();
  private late = new Set<string>();
  private goneNotReady = new Set<string>();

  /** A node's watch event. */
  onNode(type: ObjectEventType, node: KubeObject): void {
    const name = node.metadata.name ?? '';
    if (type === 'DELETED') {
      this.ready.delete(name);
      return;
    }
    const ready = isReadyNode(node);
    if (this.ready.get(name) === true && !ready) this.goneNotReady.add(name);
    this.ready.set(name, ready);
  }

  /** A node lease's watch event: a renewal that comes after the previous one had expired is late. */
  onLease(type: ObjectEventType, lease: KubeObject): void {
    const name = lease.metadata.name ?? '';
    if (type === 'DELETED') {
      this.leases.delete(name);
      return;
    }
    const spec = (lease['spec'] as LeaseSpec | undefined) ?? {};
    const renewedMs = spec.renewTime ? Date.parse(spec.renewTime) : NaN;
    const durationS = spec.leaseDurationSeconds ?? 0;
    const before = this.leases.get(name);
    if (before && Number.isFinite(before.renewedMs) && renewedMs > before.renewedMs + before.durationS * 1000) this.late.add(name);
    this.leases.set(name, { renewedMs, durationS });
  }

  /** Starts a window: the counts of distinct late leases and nodes gone NotReady begin again. */
  openWindow(): void {
    this.late = new Set();
    this.goneNotReady = new Set();
  }

  /** The counts at `now` (ms); leases expired now count as late in the window. */
  sample(now: number): TallySample {
    const ready = this.readyCount();
    let lateNow = 0;
    let oldest = 0;
    const durations = new Set<number>();
    for (const [name, lease] of this.leases) {
      durations.add(lease.durationS);
      if (!(lease.renewedMs + lease.durationS * 1000 >= now)) {
        lateNow++;
        this.late.add(name);
      }
      if (Number.isFinite(lease.renewedMs)) oldest = Math.max(oldest, now - lease.renewedMs);
    }
    let noLease = 0;
    for (const name of this.ready.keys()) if (!this.leases.has(name)) noLease++;
    return {
      nodes: this.ready.size,
      ready,
      notReady: this.ready.size - ready,
      leases: this.leases.size,
      lateNow,
      oldestRenewalS: oldest / 1000,
      noLease,
      durations: [...durations].sort((a, b) => a - b),
      lateInWindow: this.late.size,
      goneNotReadyInWindow: this.goneNotReady.size,
    };
  }

  /** Nodes Ready now. */
  readyCount(): number {
    let ready = 0;
    for (const r of this.ready.values()) if (r) ready++;
    return ready;
  }
}

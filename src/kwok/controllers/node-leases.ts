/**
 * Node leases in kube-node-lease, as the kubelet keeps them: one Lease per node,
 * named after it, owned by the Node (so it is garbage-collected with it), renewed every
 * duration/4 (+4% jitter). A lease held by another live holder makes the node read-only for this
 * instance, which lets several controllers share a cluster; an expired one is taken over.
 *
 * The last lease we wrote is cached, so a renewal is one PUT; a conflict drops the cache and the
 * next attempt re-reads. A node this instance has never leased is tried with a create first, since
 * new nodes rarely have a lease yet.
 */
import type { Logger } from '../../util/log.js';
import { isAlreadyExists, isConflict, leasesResource, type KubeClient, type KubeObject } from '../../kube/index.js';
import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { DelayQueue } from './delay-queue.js';

export const nodeLeaseNamespace = 'kube-node-lease';

export interface NodeLeasesOptions {
  client: KubeClient;
  holderIdentity: string;
  durationSeconds: number;
  /** Concurrent lease requests (kwok's nodeLeaseParallelism). */
  parallelism: number;
  logger: Logger;
  /**
   * Holders whose node leases may be taken at once: the leader this replica replaced, which
   * stopped acting before the leader Lease could pass (leader-election.ts), so waiting for its
   * node leases to expire would only delay the nodes.
   */
  takeOverFrom?: readonly string[];
  /**
   * Holders whose live leases may be taken too: with --shard, the other shards, for the nodes the
   * ring now gives to this one (the old owner stops when it sees our write).
   */
  canTakeOver?: (holder: string) => boolean;
  /** Called when this instance starts (true) or stops (false) holding a node's lease. */
  onChange(nodeName: string, held: boolean): void;
  clock?: Clock;
  random?: () => number;
}

interface LeaseState {
  uid: string;
  held: boolean;
  /** The lease as we last wrote it; undefined means "read it again". */
  lease: KubeObject | undefined;
  /** When our hold runs out if renewals keep failing. */
  heldUntil: number;
  failures: number;
  /**
   * Set when the node moved to another shard: keep renewing until that shard has written the
   * lease (or this local time passes), so the lease never lapses during the handover.
   */
  releaseUntil?: number;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  renewTime?: string;
  acquireTime?: string;
  leaseTransitions?: number;
}

/**
 * metav1.MicroTime: RFC 3339 with exactly six fractional digits. toISOString always ends in
 * ".sssZ"; appending zeros there costs half of a regex replace, and every lease renewal pays it.
 */
export function formatMicroTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, -1)}000Z`;
}

export function buildLease(nodeName: string, nodeUid: string, holder: string, durationSeconds: number, nowMs: number): KubeObject {
  const now = formatMicroTime(nowMs);
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: nodeName,
      namespace: nodeLeaseNamespace,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }],
    },
    spec: { holderIdentity: holder, leaseDurationSeconds: durationSeconds, renewTime: now, acquireTime: now, leaseTransitions: 0 },
  };
}

function specOf(lease: KubeObject): LeaseSpec {
  return (lease['spec'] as LeaseSpec | undefined) ?? {};
}

/** Whether someone else holds `lease` and it has not expired at `nowMs` (holders in `takeOverFrom` count as gone). */
export function heldByOther(lease: KubeObject, holder: string, nowMs: number, takeOverFrom: readonly string[] | ((holder: string) => boolean) = []): boolean {
  const spec = specOf(lease);
  if (!spec.holderIdentity || spec.holderIdentity === holder) return false;
  if (typeof takeOverFrom === 'function' ? takeOverFrom(spec.holderIdentity) : takeOverFrom.includes(spec.holderIdentity)) return false;
  const renewed = spec.renewTime ? Date.parse(spec.renewTime) : NaN;
  if (Number.isNaN(renewed)) return false;
  return renewed + (spec.leaseDurationSeconds ?? 0) * 1000 > nowMs;
}

/** The lease renewed (or taken over) by `holder`. */
export function renewLease(lease: KubeObject, nodeName: string, nodeUid: string, holder: string, durationSeconds: number, nowMs: number): KubeObject {
  const spec = specOf(lease);
  const now = formatMicroTime(nowMs);
  const takeover = spec.holderIdentity !== holder;
  return {
    ...lease,
    metadata: { ...lease.metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }] },
    spec: {
      ...spec,
      holderIdentity: holder,
      leaseDurationSeconds: durationSeconds,
      renewTime: now,
      ...(takeover ? { acquireTime: now, leaseTransitions: (spec.leaseTransitions ?? 0) + (spec.holderIdentity ? 1 : 0) } : {}),
    },
  };
}

export class NodeLeases {
  private readonly nodes = new Map<string, LeaseState>();
  private readonly queue: DelayQueue<string>;
  private readonly clock: Clock;
  private readonly random: () => number;

  constructor(private readonly options: NodeLeasesOptions) {
    if (options.durationSeconds <= 0) throw new Error('node leases need a positive duration');
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.queue = new DelayQueue<string>(this.clock);
  }

  get heldCount(): number {
    let count = 0;
    for (const state of this.nodes.values()) if (state.held) count++;
    return count;
  }

  isHeld(nodeName: string): boolean {
    return this.nodes.get(nodeName)?.held ?? false;
  }

  /** Start (or keep) leasing `nodeName`. */
  ensure(nodeName: string, nodeUid: string): void {
    const state = this.nodes.get(nodeName);
    if (state) {
      delete state.releaseUntil;
      if (state.uid !== nodeUid) {
        // The node was recreated under the same name: fix the owner reference now.
        state.uid = nodeUid;
        this.queue.add(nodeName, nodeName, 0);
      }
      return;
    }
    this.nodes.set(nodeName, { uid: nodeUid, held: false, lease: undefined, heldUntil: 0, failures: 0 });
    this.queue.add(nodeName, nodeName, 0);
  }

  /** Stop leasing (node deleted or no longer managed). The lease itself is left to garbage collection. */
  forget(nodeName: string): void {
    const state = this.nodes.get(nodeName);
    if (!state) return;
    this.nodes.delete(nodeName);
    this.queue.cancel(nodeName);
    if (state.held) this.options.onChange(nodeName, false);
  }

  /**
   * The node moved to another shard: stop at once if we do not hold its lease, else keep renewing
   * for up to `graceMs` or until the new owner has written it, whichever comes first.
   */
  release(nodeName: string, graceMs: number): void {
    const state = this.nodes.get(nodeName);
    if (!state) return;
    if (!state.held) {
      this.forget(nodeName);
      return;
    }
    state.releaseUntil ??= this.clock.now() + graceMs;
  }

  async run(signal: AbortSignal): Promise<void> {
    signal.addEventListener('abort', () => this.queue.close(), { once: true });
    const workers = Array.from({ length: Math.max(1, this.options.parallelism) }, async () => {
      for (;;) {
        const job = await this.queue.take(signal);
        if (!job) return;
        await this.sync(job.item);
      }
    });
    await Promise.all(workers);
  }

  private readonly takeOver = (other: string): boolean => (this.options.takeOverFrom?.includes(other) ?? false) || (this.options.canTakeOver?.(other) ?? false);

  private renewIntervalMs(): number {
    return (this.options.durationSeconds * 1000) / 4 * (1 + 0.04 * this.random());
  }

  private setHeld(nodeName: string, state: LeaseState, held: boolean): void {
    if (state.held === held) return;
    state.held = held;
    this.options.onChange(nodeName, held);
  }

  /** One acquire-or-renew attempt, then schedule the next. */
  private async sync(nodeName: string): Promise<void> {
    const state = this.nodes.get(nodeName);
    if (!state) return;
    const { client, holderIdentity: holder, durationSeconds, logger } = this.options;
    const now = this.clock.now();
    let next = this.renewIntervalMs();
    if (state.releaseUntil !== undefined && now >= state.releaseUntil) {
      this.forget(nodeName);
      return;
    }
    try {
      let lease = state.lease;
      if (!lease) {
        try {
          lease = await client.create(leasesResource, buildLease(nodeName, state.uid, holder, durationSeconds, now));
          this.acquired(nodeName, state, lease, now);
          return;
        } catch (error) {
          if (!isAlreadyExists(error)) throw error;
        }
        lease = await client.get(leasesResource, { name: nodeName, namespace: nodeLeaseNamespace });
        if (!lease) {
          next = 0;
          return;
        }
      }
      if (state.releaseUntil !== undefined && specOf(lease).holderIdentity && specOf(lease).holderIdentity !== holder) {
        // The new owner has it: the handover is done.
        this.forget(nodeName);
        return;
      }
      if (heldByOther(lease, holder, now, this.takeOver)) {
        state.lease = undefined;
        if (state.held) logger.info(`node ${nodeName}: lease is held by ${specOf(lease).holderIdentity}; node is read-only here`);
        this.setHeld(nodeName, state, false);
        return;
      }
      const updated = await client.update(leasesResource, renewLease(lease, nodeName, state.uid, holder, durationSeconds, now));
      this.acquired(nodeName, state, updated, now);
    } catch (error) {
      state.lease = undefined;
      if (isConflict(error)) {
        // Someone else wrote the lease since we read it; look again soon.
        next = 500 + 500 * this.random();
      } else {
        state.failures++;
        next = Math.min(next, 1000 * 2 ** Math.min(state.failures, 5));
        logger.warn(`node ${nodeName}: lease: ${(error as Error).message}`);
      }
      if (state.held && this.clock.now() > state.heldUntil) this.setHeld(nodeName, state, false);
    } finally {
      if (this.nodes.get(nodeName) === state && this.queue.get(nodeName) === undefined) this.queue.add(nodeName, nodeName, next);
    }
  }

  private acquired(nodeName: string, state: LeaseState, lease: KubeObject, now: number): void {
    // The renewal sends this lease back. The apiserver keeps a lease's managedFields when an
    // update leaves them out, so they are not sent: with 5,000 nodes that is 5,000 fewer copies of
    // them to encode and send, and for the apiserver to decode, per renewal round.
    delete lease.metadata.managedFields;
    state.lease = lease;
    state.failures = 0;
    state.heldUntil = now + this.options.durationSeconds * 1000;
    this.setHeld(nodeName, state, true);
  }
}

/**
 * Shard membership through Leases: each controller process started with --shard holds a Lease
 * `kwok-shard-<id>` (labelled kwok.x-k8s.io/shard) and renews it every retry period; the set of
 * shard Leases renewed within their duration is the membership, from which every shard computes
 * the same ShardRing (the shard Leases are watched, so a round costs one request: the renewal). A shard whose own renewals fail for a lease duration counts itself out (it
 * owns nothing until it renews again), so two shards never both think they own a node for long.
 *
 * Liveness is judged on the local clock: a lease counts as renewed when its renewTime changes
 * between two of our lists (or, the first time, at its renewTime if that is in the past), so clock
 * skew between machines cannot keep a dead shard in the ring. A shard that stops cleanly deletes
 * its Lease so the others take its nodes at their next poll instead of after the lease duration.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../../util/log.js';
import { isAlreadyExists, isConflict, isNotFound, leasesResource, Reflector, type KubeClient, type KubeObject } from '../../kube/index.js';
import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { formatMicroTime } from './node-leases.js';
import { ShardRing } from './shard-ring.js';

export const shardLabel = 'kwok.x-k8s.io/shard';
export const shardLeasePrefix = 'kwok-shard-';

export const shardDefaults = {
  namespace: 'kube-node-lease',
  leaseDurationMs: 20_000,
  retryPeriodMs: 2_000,
} as const;

/** A valid Lease name for a shard identity (ids such as host_uuid hold characters names may not). */
export function shardLeaseName(identity: string): string {
  const clean = identity.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  const name = `${shardLeasePrefix}${clean}`;
  if (clean === identity && name.length <= 63) return name;
  // Two ids that clean to the same text must not share a Lease.
  const suffix = createHash('sha256').update(identity).digest('hex').slice(0, 8);
  return `${name.slice(0, 63 - 9).replace(/[^a-z0-9]+$/, '')}-${suffix}`;
}

export interface ShardMembershipOptions {
  client: KubeClient;
  identity: string;
  namespace: string;
  leaseDurationMs: number;
  retryPeriodMs: number;
  logger: Logger;
  clock?: Clock;
  /** Called with the new ring whenever the live member set changes (and once at the first list). */
  onChange(ring: ShardRing): void;
}

interface Observed {
  renewTime: string;
  /** Local time at which we take the lease to have been renewed. */
  seenAt: number;
  durationMs: number;
}

interface ShardLeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  renewTime?: string;
}

export class ShardMembership {
  private readonly clock: Clock;
  private readonly leaseName: string;
  private lease: KubeObject | undefined;
  private lastRenewal = -Infinity;
  private readonly observed = new Map<string, Observed>();
  /** Every shard identity ever listed, live or not: their node leases may be taken over. */
  private readonly known = new Set<string>();
  private current: ShardRing | undefined;
  private watch: Reflector | undefined;
  private readyResolve!: () => void;
  private readonly readyPromise = new Promise<void>((resolve) => (this.readyResolve = resolve));

  constructor(private readonly options: ShardMembershipOptions) {
    if (!(options.leaseDurationMs > options.retryPeriodMs) || !(options.retryPeriodMs > 0)) {
      throw new Error('shard lease duration must be greater than the retry period, which must be positive');
    }
    this.clock = options.clock ?? systemClock;
    this.leaseName = shardLeaseName(options.identity);
    this.known.add(options.identity);
  }

  /** The ring as last computed (empty until the first list). */
  get ring(): ShardRing {
    return this.current ?? new ShardRing([]);
  }

  /** Resolves after the first successful list. */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  /** Whether `holder` is (or was) a shard: node leases it holds may be taken by the node's owner. */
  isShard(holder: string): boolean {
    return this.known.has(holder);
  }

  owns(key: string): boolean {
    return this.current?.ownerOf(key) === this.options.identity;
  }

  async run(signal: AbortSignal): Promise<void> {
    // Watched, not listed each round: kube-node-lease holds a Lease per node, and a labelled list
    // of 50,000 of them every retry period was a measurable share of the apiserver's CPU.
    this.watch = new Reflector({
      client: this.options.client,
      ref: leasesResource,
      selectors: { namespace: this.options.namespace, labelSelector: shardLabel },
      logger: this.options.logger,
      onEvent: () => {},
    });
    const watching = this.watch.run(signal);
    while (!signal.aborted) {
      await this.tick(signal);
      if (signal.aborted) break;
      await new Promise<void>((resolve) => {
        const onAbort = (): void => {
          cancel();
          resolve();
        };
        const cancel = this.clock.setTimer(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        }, this.options.retryPeriodMs);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    await this.leave();
    await watching;
  }

  /** One renewal and one list; public for tests driving a manual clock. */
  async tick(signal?: AbortSignal): Promise<void> {
    const { client, logger, namespace } = this.options;
    try {
      await this.renew();
    } catch (error) {
      this.lease = undefined;
      if (!isConflict(error)) logger.warn(`shard lease ${namespace}/${this.leaseName}: ${(error as Error).message}`);
    }
    try {
      if (this.watch?.hasSynced) this.update([...this.watch.store.values()]);
      else this.update((await client.list(leasesResource, { namespace, labelSelector: shardLabel }, signal)).items);
    } catch (error) {
      if (!signal?.aborted) logger.warn(`listing shard leases: ${(error as Error).message}`);
    }
  }

  private async renew(): Promise<void> {
    const { client, identity, namespace, leaseDurationMs } = this.options;
    const now = this.clock.now();
    const spec = { holderIdentity: identity, leaseDurationSeconds: Math.ceil(leaseDurationMs / 1000), renewTime: formatMicroTime(now) };
    if (this.lease) {
      this.lease = await client.update(leasesResource, { ...this.lease, spec: { ...(this.lease['spec'] as object), ...spec } });
    } else {
      try {
        this.lease = await client.create(leasesResource, {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.leaseName, namespace, labels: { [shardLabel]: 'true' } },
          spec: { ...spec, acquireTime: spec.renewTime },
        });
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
        const existing = await client.get(leasesResource, { name: this.leaseName, namespace });
        if (!existing) throw error;
        this.lease = await client.update(leasesResource, { ...existing, spec: { ...(existing['spec'] as object), ...spec } });
      }
    }
    this.lastRenewal = now;
  }

  private update(leases: readonly KubeObject[]): void {
    const now = this.clock.now();
    const live = new Set<string>();
    for (const lease of leases) {
      const spec = (lease['spec'] as ShardLeaseSpec | undefined) ?? {};
      const holder = spec.holderIdentity;
      if (!holder || !spec.renewTime) continue;
      this.known.add(holder);
      const durationMs = (spec.leaseDurationSeconds ?? 0) * 1000;
      const previous = this.observed.get(holder);
      let seenAt: number;
      if (!previous) {
        const renewed = Date.parse(spec.renewTime);
        seenAt = Number.isNaN(renewed) ? now - durationMs : Math.min(renewed, now);
      } else {
        seenAt = previous.renewTime === spec.renewTime ? previous.seenAt : now;
      }
      this.observed.set(holder, { renewTime: spec.renewTime, seenAt, durationMs });
      if (holder !== this.options.identity && now - seenAt < durationMs) live.add(holder);
    }
    // Ourselves by our own renewals, not by what the list says.
    if (now - this.lastRenewal < this.options.leaseDurationMs) live.add(this.options.identity);
    const ring = new ShardRing(live);
    const first = this.current === undefined;
    if (first || !ring.sameMembers(this.current!)) {
      this.current = ring;
      this.options.logger.info(`shards: ${ring.members.length} live (${ring.members.join(', ')})`);
      this.options.onChange(ring);
    }
    if (first) this.readyResolve();
  }

  /** Delete our Lease so the others take our nodes at once. */
  private async leave(): Promise<void> {
    try {
      await this.options.client.delete(leasesResource, { name: this.leaseName, namespace: this.options.namespace });
    } catch (error) {
      if (!isNotFound(error)) this.options.logger.warn(`deleting shard lease: ${(error as Error).message}`);
    }
  }
}

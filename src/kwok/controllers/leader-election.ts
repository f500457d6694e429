/**
 * Lease-based leader election (coordination.k8s.io/v1), following client-go's leaderelection so a
 * kwokts controller behaves like every other Kubernetes component running with several replicas:
 *
 * - A candidate tries to take the Lease every retryPeriod (with up to 20% jitter). It may when the
 *   Lease is missing, has no holder, or has not changed for leaseDuration *as observed on the local
 *   clock*: like client-go, it does not trust renewTime from another machine's clock, so skew
 *   between replicas cannot make two of them leaders. One refinement: a renewTime that lies within
 *   the last poll interval on our clock is taken as the moment of renewal (it cannot be off by more
 *   than that interval, which is smaller than leaseDuration - renewDeadline, the margin that keeps
 *   an old leader from overlapping a new one), and the next attempt is timed for the expiry rather
 *   than the next poll. A standby thus takes over within one lease duration of the last renewal,
 *   where client-go may take up to two retry periods longer.
 * - The leader renews every retryPeriod; if no renewal succeeded for renewDeadline it gives up
 *   (leaseDuration > renewDeadline, so it stops acting before anyone else may start).
 * - Every write carries the resourceVersion it read, so two candidates racing for one expired
 *   Lease cannot both win: the loser gets a conflict.
 * - A leader that stops cleanly releases the Lease (empty holder, 1 s duration), so a rolling update
 *   hands over at once instead of after leaseDuration.
 */
import type { Logger } from '../../util/log.js';
import { isAlreadyExists, isConflict, isNotFound, leasesResource, type KubeClient, type KubeObject } from '../../kube/index.js';
import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { formatMicroTime } from './node-leases.js';

/** client-go's defaults (and kube-scheduler's, kube-controller-manager's). */
export const leaderElectionDefaults = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  resourceName: 'kwok-controller',
  resourceNamespace: 'kube-system',
} as const;

/** wait.JitterUntil's factor in client-go's acquire loop. */
const jitterFactor = 1.2;

export interface LeaderElectionConfig {
  client: KubeClient;
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  logger: Logger;
  clock?: Clock;
  random?: () => number;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** The timing rules client-go enforces in NewLeaderElector; returns the first one broken. */
export function checkLeaderElectionTiming(config: Pick<LeaderElectionConfig, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>): string | undefined {
  const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = config;
  if (!(retryPeriodMs > 0)) return 'the retry period must be greater than zero';
  if (!(leaseDurationMs > renewDeadlineMs)) return 'the lease duration must be greater than the renew deadline';
  if (!(renewDeadlineMs > jitterFactor * retryPeriodMs)) return `the renew deadline must be greater than ${jitterFactor} × the retry period`;
  return undefined;
}

function specOf(lease: KubeObject | undefined): LeaseSpec {
  return (lease?.['spec'] as LeaseSpec | undefined) ?? {};
}

/** Sleep on the injected clock; resolves early (false) when the signal aborts. */
function pause(clock: Clock, ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      cancel();
      resolve(false);
    };
    const cancel = clock.setTimer(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class LeaderElector {
  private readonly clock: Clock;
  private readonly random: () => number;
  /** The Lease as last read or written, and when (local clock) it was last renewed as far as we know. */
  private observed: KubeObject | undefined;
  private observedSpecJson = '';
  private renewedAt = 0;
  private leader = false;
  /** The last holder other than this replica that we saw. */
  private lastOtherHolder = '';

  constructor(private readonly config: LeaderElectionConfig) {
    const problem = checkLeaderElectionTiming(config);
    if (problem) throw new Error(`leader election: ${problem}`);
    if (!config.identity) throw new Error('leader election: the identity must not be empty');
    this.clock = config.clock ?? systemClock;
    this.random = config.random ?? Math.random;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  /** Who holds the Lease according to the last read (for logs). */
  get observedHolder(): string {
    return specOf(this.observed).holderIdentity ?? '';
  }

  /**
   * The leader this replica replaced, once it leads: the last other holder it saw. That replica
   * has stopped acting (its renew deadline is shorter than the lease), so what it held is free.
   */
  get previousLeader(): string | undefined {
    return this.lastOtherHolder || undefined;
  }

  get description(): string {
    return `lease ${this.config.namespace}/${this.config.name}`;
  }

  /** Blocks until this instance holds the Lease (true) or the signal aborts (false). */
  async acquire(signal: AbortSignal): Promise<boolean> {
    const { logger, retryPeriodMs } = this.config;
    logger.info(`leader election: waiting to acquire ${this.description} as ${this.config.identity}`);
    let reportedHolder = '';
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew()) {
        logger.info(`leader election: acquired ${this.description}`);
        return true;
      }
      const holder = this.observedHolder;
      if (holder && holder !== reportedHolder) {
        logger.info(`leader election: ${this.description} is held by ${holder}; standing by`);
        reportedHolder = holder;
      }
      const poll = retryPeriodMs * (1 + (jitterFactor - 1) * this.random());
      const untilExpiry = holder && holder !== this.config.identity ? this.expiresAt() - this.clock.now() : 0;
      if (!(await pause(this.clock, untilExpiry > 0 ? Math.min(poll, untilExpiry) : poll, signal))) break;
    }
    return false;
  }

  /**
   * Keeps the Lease renewed. Resolves 'lost' when no renewal succeeded within renewDeadline (or
   * someone else holds it), 'stopped' when the signal aborts.
   */
  async renew(signal: AbortSignal): Promise<'lost' | 'stopped'> {
    const { logger, renewDeadlineMs, retryPeriodMs } = this.config;
    let lastRenew = this.clock.now();
    while (!signal.aborted) {
      if (!(await pause(this.clock, retryPeriodMs, signal))) break;
      // An attempt may hang (the client retries transient errors for half a minute); the leader
      // must stop acting at the deadline regardless, before a standby may take over.
      // The deadline counts from when a renewal was sent (its renewTime), not when it was answered,
      // so a slow apiserver eats into the leader's time rather than into the safety margin.
      const sentAt = this.clock.now();
      const attempt = await this.within(lastRenew + renewDeadlineMs - sentAt, this.tryAcquireOrRenew());
      if (attempt === true) {
        lastRenew = sentAt;
        continue;
      }
      if (signal.aborted) break;
      const holder = this.observedHolder;
      if (holder && holder !== this.config.identity) {
        logger.error(`leader election: ${this.description} is now held by ${holder}`);
        this.leader = false;
        return 'lost';
      }
      if (this.clock.now() - lastRenew >= renewDeadlineMs) {
        logger.error(`leader election: could not renew ${this.description} within ${renewDeadlineMs} ms`);
        this.leader = false;
        return 'lost';
      }
    }
    return 'stopped';
  }

  /** The attempt's result, or 'timeout' when `ms` pass first. */
  private within(ms: number, attempt: Promise<boolean>): Promise<boolean | 'timeout'> {
    if (ms <= 0) return Promise.resolve('timeout');
    return new Promise((resolve) => {
      const cancel = this.clock.setTimer(() => resolve('timeout'), ms);
      attempt.then(
        (ok) => {
          cancel();
          resolve(ok);
        },
        () => {
          cancel();
          resolve(false);
        },
      );
    });
  }

  /** Give the Lease up so a standby takes over at once (client-go's ReleaseOnCancel). */
  async release(): Promise<void> {
    if (!this.leader || !this.observed) return;
    this.leader = false;
    const now = formatMicroTime(this.clock.now());
    const spec = specOf(this.observed);
    const lease: KubeObject = {
      ...this.observed,
      spec: { ...spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now },
    };
    try {
      this.remember(await this.config.client.update(leasesResource, lease));
      this.config.logger.info(`leader election: released ${this.description}`);
    } catch (error) {
      this.config.logger.warn(`leader election: releasing ${this.description}: ${(error as Error).message}`);
    }
  }

  /** One attempt, as client-go's tryAcquireOrRenew. True when this instance holds the Lease afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const { client, namespace, name, identity, leaseDurationMs, logger } = this.config;
    const now = this.clock.now();
    const nowText = formatMicroTime(now);
    const durationSeconds = Math.ceil(leaseDurationMs / 1000);
    let current: KubeObject | undefined;
    try {
      current = await client.get(leasesResource, { namespace, name });
    } catch (error) {
      if (!isNotFound(error)) {
        logger.warn(`leader election: reading ${this.description}: ${(error as Error).message}`);
        return false;
      }
    }
    if (!current) {
      const lease: KubeObject = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace },
        spec: { holderIdentity: identity, leaseDurationSeconds: durationSeconds, acquireTime: nowText, renewTime: nowText, leaseTransitions: 0 },
      };
      try {
        this.remember(await client.create(leasesResource, lease, { namespace }));
        this.leader = true;
        return true;
      } catch (error) {
        if (!isAlreadyExists(error)) logger.warn(`leader election: creating ${this.description}: ${(error as Error).message}`);
        return false;
      }
    }

    this.remember(current);
    const spec = specOf(current);
    const holder = spec.holderIdentity ?? '';
    const heldByOther = holder !== '' && holder !== identity;
    if (heldByOther && this.expiresAt() > now) {
      this.leader = false;
      return false;
    }
    const next: LeaseSpec = {
      ...spec,
      holderIdentity: identity,
      leaseDurationSeconds: durationSeconds,
      renewTime: nowText,
      ...(holder === identity ? {} : { acquireTime: nowText, leaseTransitions: (spec.leaseTransitions ?? 0) + 1 }),
    };
    try {
      // update sends the resourceVersion just read: a concurrent writer makes this a conflict.
      this.remember(await client.update(leasesResource, { ...current, spec: next }));
      this.leader = true;
      return true;
    } catch (error) {
      if (!isConflict(error)) logger.warn(`leader election: updating ${this.description}: ${(error as Error).message}`);
      return false;
    }
  }

  /** When (local clock) the observed holder's Lease runs out unless renewed. */
  private expiresAt(): number {
    const seconds = specOf(this.observed).leaseDurationSeconds ?? Math.ceil(this.config.leaseDurationMs / 1000);
    return this.renewedAt + seconds * 1000;
  }

  /**
   * Record the Lease. Its renewal moment moves only when its spec changed: to now, or to its
   * renewTime when that lies within the last poll interval on our clock (see the file comment).
   */
  private remember(lease: KubeObject): void {
    const json = JSON.stringify(specOf(lease));
    if (json !== this.observedSpecJson || !this.observed) {
      this.observedSpecJson = json;
      const now = this.clock.now();
      const written = Date.parse(specOf(lease).renewTime ?? '');
      // Never more than the margin between renewDeadline and leaseDuration (see the file comment).
      const window = Math.min(this.config.retryPeriodMs * jitterFactor, this.config.leaseDurationMs - this.config.renewDeadlineMs);
      this.renewedAt = Number.isFinite(written) && written <= now && written >= now - window ? written : now;
    }
    this.observed = lease;
    const holder = specOf(lease).holderIdentity ?? '';
    if (holder && holder !== this.config.identity) this.lastOtherHolder = holder;
  }
}

export type LeadershipOutcome = 'stopped' | 'lost';

/**
 * Runs `work` only while this instance leads: waits to acquire, starts `work` with a signal that
 * aborts when leadership is lost or `signal` aborts, and releases the Lease after a clean stop.
 * Returns 'lost' when leadership was lost (the caller should exit, as client-go components do).
 */
export async function runWhileLeader(
  elector: LeaderElector,
  signal: AbortSignal,
  work: (leaderSignal: AbortSignal) => Promise<void>,
): Promise<LeadershipOutcome> {
  if (!(await elector.acquire(signal))) return 'stopped';
  const inner = new AbortController();
  const stop = (): void => inner.abort();
  signal.addEventListener('abort', stop, { once: true });
  const renewal = elector.renew(inner.signal).then((outcome) => {
    inner.abort();
    return outcome;
  });
  try {
    await work(inner.signal);
  } catch (error) {
    inner.abort();
    // A failed leader hands over at once rather than making the standbys wait a lease period.
    if ((await renewal) === 'stopped') await elector.release();
    throw error;
  } finally {
    inner.abort();
    signal.removeEventListener('abort', stop);
  }
  const outcome = await renewal;
  if (outcome === 'lost') return 'lost';
  await elector.release();
  return 'stopped';
}

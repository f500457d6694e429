/**
 * One stage compiled for evaluation (its jq/CEL expressions and value getters), and kwok's rules
 * for choosing among matching stages — the parts of pkg/utils/lifecycle/lifecycle.go that
 * decide; stage-set.ts puts them together. No I/O: clock and random source are injected.
 *
 * Choice among several matching stages (Match): each stage's weight is evaluated; if none has a
 * usable weight → uniform; if the total is 0 → uniform among those that have one (all, if none
 * failed); otherwise proportional among weights > 0. ListAllPossible applies the same rules
 * without randomness and returns every candidate.
 *
 * Delay: with spec.delay the base duration is durationFrom or durationMilliseconds (0 if neither);
 * if a jitter is set and yields a value, jitter ≤ duration gives exactly the jitter, otherwise
 * duration + uniform[0, jitter − duration). Without spec.delay the stage runs immediately.
 */
import type { Stage } from '../api/stage-types.js';
import { compileCel, type CelProgram, type CelRuntime } from '../cel/cel.js';
import { compileJq } from '../../gocompat/jq/index.js';
import { celConditionMatches, jqRequirementMatches, matchesSet, type CompiledJqRequirement } from './selector.js';
import { durationGetter, intGetter, type DurationGetter, type IntGetter } from './value-from.js';

const NS_PER_MS = 1_000_000n;

export interface StageRuntime extends CelRuntime {
  now: () => Date;
  /** Uniform in [0, 1), like Math.random. */
  random: () => number;
}

/** A CEL expression failed while evaluating a stage for an object (kwok then skips the object). */
export class StageEvaluationError extends Error {
  constructor(
    readonly stageName: string,
    cause: unknown,
  ) {
    super(`stage "${stageName}": ${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}`, { cause });
    this.name = 'StageEvaluationError';
  }
}

/** Possible delay of a stage for an object, in nanoseconds (kwok's DelayRangePossible). */
export interface DelayRange {
  /** [d] without jitter or when jitter ≤ duration (then d is the jitter); [min, max) otherwise. */
  readonly ns: readonly bigint[];
}

export class CompiledStage {
  readonly stage: Stage;
  private readonly jq: CompiledJqRequirement[] = [];
  private readonly cel: CelProgram[] = [];
  private readonly weightGetter: IntGetter;
  private readonly duration: DurationGetter | undefined;
  private readonly jitter: DurationGetter | undefined;

  constructor(stage: Stage) {
    this.stage = stage;
    for (const item of stage.selector.matchExpressions) {
      if (item.jq) this.jq.push({ ...item.jq, query: compileJq(item.jq.key) });
      else this.cel.push(compileCel(item.cel.expression));
    }
    this.weightGetter = intGetter(stage.weight, stage.weightFrom);
    const delay = stage.delay;
    if (delay !== undefined) {
      this.duration = durationGetter(BigInt(delay.durationMilliseconds ?? 0) * NS_PER_MS, delay.durationFrom);
      if (delay.jitterDurationMilliseconds !== undefined || delay.jitterDurationFrom !== undefined) {
        // kwok only passes jitterDurationFrom on when it has a jq expression.
        const from = delay.jitterDurationFrom?.jq ? delay.jitterDurationFrom : undefined;
        const ms = delay.jitterDurationMilliseconds;
        this.jitter = durationGetter(ms === undefined ? undefined : BigInt(ms) * NS_PER_MS, from);
      }
    }
  }

  /** Throws StageEvaluationError when a CEL condition fails. */
  matches(object: unknown, runtime: StageRuntime): boolean {
    const meta = (object as { metadata?: { labels?: unknown; annotations?: unknown } } | null)?.metadata;
    if (!matchesSet(this.stage.selector.matchLabels, meta?.labels)) return false;
    if (!matchesSet(this.stage.selector.matchAnnotations, meta?.annotations)) return false;
    for (const req of this.jq) if (!jqRequirementMatches(req, object)) return false;
    try {
      for (const program of this.cel) if (!celConditionMatches(program, object, runtime)) return false;
    } catch (error) {
      throw new StageEvaluationError(this.stage.name, error);
    }
    return true;
  }

  /** The weight, or undefined when it is "unset" (an empty or unparsable weightFrom). */
  weight(object: unknown, runtime: StageRuntime): number | undefined {
    try {
      const w = this.weightGetter.get(object, runtime);
      return w.ok ? w.value : undefined;
    } catch (error) {
      throw new StageEvaluationError(this.stage.name, error);
    }
  }

  delayRange(object: unknown, runtime: StageRuntime): DelayRange | undefined {
    try {
      if (this.duration === undefined) return undefined;
      const d = this.duration.get(object, runtime);
      if (!d.ok) return undefined;
      const j = this.jitter?.get(object, runtime);
      if (j === undefined || !j.ok) return { ns: [d.value] };
      if (j.value <= d.value) return { ns: [j.value] };
      return { ns: [d.value, j.value] };
    } catch (error) {
      throw new StageEvaluationError(this.stage.name, error);
    }
  }
}

/** rand.Int63n(n) from a [0,1) source. */
function randomBelow(n: bigint, random: () => number): bigint {
  if (n <= 0n) return 0n;
  const r = BigInt(Math.floor(random() * Number(n)));
  return r >= n ? n - 1n : r;
}

/** A concrete delay from a range: the only value, or min + random[0, max − min). */
export function pickDelay(range: DelayRange, random: () => number): bigint {
  const [min, max] = range.ns;
  if (max === undefined) return min!;
  return min! + randomBelow(max - min!, random);
}

export interface WeightedCandidate {
  stage: CompiledStage;
  /** undefined = no usable weight */
  weight: number | undefined;
}

/** kwok's reduction of matching stages to the possible ones (ListAllPossible). */
export function possibleCandidates(candidates: readonly WeightedCandidate[]): WeightedCandidate[] {
  if (candidates.length <= 1) return [...candidates];
  const withWeight = candidates.filter((c) => c.weight !== undefined);
  if (withWeight.length === 0) return [...candidates];
  const total = withWeight.reduce((sum, c) => sum + (c.weight ?? 0), 0);
  if (total === 0) return withWeight.length === candidates.length ? [...candidates] : withWeight;
  return candidates.filter((c) => (c.weight ?? 0) > 0);
}

/** kwok's random choice (Match). */
export function chooseCandidate(candidates: readonly WeightedCandidate[], random: () => number): WeightedCandidate | undefined {
  if (candidates.length <= 1) return candidates[0];
  const withWeight = candidates.filter((c) => c.weight !== undefined);
  const total = withWeight.reduce((sum, c) => sum + (c.weight ?? 0), 0);
  if (withWeight.length === 0 || total === 0) {
    const pool = withWeight.length === 0 ? candidates : withWeight;
    return pool[Number(randomBelow(BigInt(pool.length), random))];
  }
  let off = Number(randomBelow(BigInt(total), random));
  for (const c of candidates) {
    const w = c.weight ?? 0;
    if (w <= 0) continue;
    off -= w;
    if (off < 0) return c;
  }
  return candidates[candidates.length - 1];
}

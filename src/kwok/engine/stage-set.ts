/**
 * A set of stages for matching objects: kwok's Lifecycle.Match / ListAllPossible plus the delay
 * of the chosen stage. Pure: `now` and `random` come from the options.
 */
import { parseStages } from '../api/parse-stages.js';
import type { Stage } from '../api/stage-types.js';
import { CompiledStage, StageEvaluationError, chooseCandidate, pickDelay, possibleCandidates, type DelayRange, type StageRuntime, type WeightedCandidate } from './compiled-stage.js';
import { kwokFuncs } from '../../gocompat/gotpl/index.js';
import type { PlanOptions } from './plan-actions.js';
import type { FuncMap, RenderTemplate } from './render.js';

export interface StageEngineOptions {
  now: () => Date;
  /** Uniform in [0, 1); drives the weighted choice and the jitter. */
  random: () => number;
  /** Template renderer for planActions; defaults to ./gotpl. */
  renderTemplate?: RenderTemplate;
  /** Base template functions; default kwokFuncs({ now }) from ./gotpl (Now on the injected clock). */
  funcs?: FuncMap;
  /** v1 Pod/Node are typed objects (default patch type strategic). Default true. */
  typedCoreKinds?: boolean;
  /** Called when evaluating a stage fails (a CEL error); match() then returns undefined, as kwok skips the object. */
  onError?: (error: StageEvaluationError) => void;
}

export interface StageMatch {
  stage: Stage;
  /** The stage's weight for this object (0 when it has no usable weight). */
  weight: number;
  /** True when weightFrom yielded no usable weight (kwok's "weight not ok"). */
  weightUnset?: boolean;
  /** The chosen delay, clamped at 0 (0 = run now). */
  delayMs: number;
  /** The chosen delay in nanoseconds, unclamped; undefined when the stage has no delay. */
  delayNs?: bigint;
  /** Bounds of the possible delay (kwok's DelayRangePossible), when the stage has a delay. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** The exact possible delays in nanoseconds: [d] or [min, max). */
  delayRangeNs?: readonly bigint[];
  /** The StageSet's renderer/funcs/typedCoreKinds; planActions(match, ...) uses them by default. */
  planOptions: PlanOptions;
}

const NS_PER_MS = 1_000_000n;

function toMs(ns: bigint): number {
  return Number(ns / NS_PER_MS);
}

function parseDocumentsOrThrow(documents: readonly unknown[]): Stage[] {
  const { stages, errors } = parseStages(documents, 'stages');
  if (errors[0] !== undefined) throw errors[0];
  return stages;
}

function isNormalisedStage(value: unknown): value is Stage {
  const s = value as Partial<Stage> | null;
  return typeof s === 'object' && s !== null && typeof s.name === 'string' && Array.isArray(s.steps) && typeof s.selector === 'object' && s.selector !== null;
}

export class StageSet {
  readonly stages: readonly Stage[];
  private readonly compiled: CompiledStage[];
  private readonly options: StageEngineOptions;
  private readonly runtime: StageRuntime;
  private readonly byResource = new Map<string, StageSet>();
  private readonly planOptions: PlanOptions;

  /**
   * `stages` normally come from parseStages() (src/kwok/api), which reports invalid stages and
   * keeps the rest. Raw Stage documents are accepted too: they are parsed here, and the first
   * invalid one throws its UsageError.
   */
  constructor(stages: readonly Stage[] | readonly unknown[], options: StageEngineOptions) {
    if (!Array.isArray(stages)) throw new TypeError('StageSet needs an array of stages');
    this.stages = stages.every(isNormalisedStage) ? stages : parseDocumentsOrThrow(stages);
    this.options = options;
    this.runtime = { now: options.now, random: options.random };
    this.planOptions = {};
    if (options.renderTemplate) this.planOptions.renderTemplate = options.renderTemplate;
    // kwok's own functions (Now, Quote, YAML, NodeConditions, ...) on the injected clock by default.
    this.planOptions.funcs = options.funcs ?? kwokFuncs({ now: options.now });
    if (options.typedCoreKinds !== undefined) this.planOptions.typedCoreKinds = options.typedCoreKinds;
    this.compiled = this.stages.map((s) => new CompiledStage(s));
  }

  /** The options planActions needs (renderer, base funcs, typedCoreKinds). */
  get engineOptions(): PlanOptions {
    return this.planOptions;
  }

  /** The stages whose resourceRef is exactly {apiGroup, kind} (cached). */
  forResource(apiGroup: string, kind: string): StageSet {
    const key = `${apiGroup}\u0000${kind}`;
    let set = this.byResource.get(key);
    if (set === undefined) {
      set = new StageSet(
        this.stages.filter((s) => s.resourceRef.apiGroup === apiGroup && s.resourceRef.kind === kind),
        this.options,
      );
      this.byResource.set(key, set);
    }
    return set;
  }

  private candidates(object: unknown): WeightedCandidate[] {
    const matching = this.compiled.filter((c) => c.matches(object, this.runtime));
    if (matching.length === 1) {
      // kwok takes a single match without evaluating its weight; a failing weightFrom must not stop it.
      let weight: number | undefined;
      try {
        weight = matching[0]!.weight(object, this.runtime);
      } catch {
        weight = undefined;
      }
      return [{ stage: matching[0]!, weight }];
    }
    return matching.map((stage) => ({ stage, weight: stage.weight(object, this.runtime) }));
  }

  private toMatch(candidate: WeightedCandidate, object: unknown, withRandomDelay: boolean): StageMatch {
    const range: DelayRange | undefined = candidate.stage.delayRange(object, this.runtime);
    const match: StageMatch = { stage: candidate.stage.stage, weight: candidate.weight ?? 0, delayMs: 0, planOptions: this.planOptions };
    if (candidate.weight === undefined) match.weightUnset = true;
    if (range !== undefined) {
      const ns = withRandomDelay ? pickDelay(range, this.options.random) : range.ns[0]!;
      match.delayNs = ns;
      match.delayMs = ns > 0n ? toMs(ns) : 0;
      match.delayRangeNs = range.ns;
      match.minDelayMs = Math.max(0, toMs(range.ns[0]!));
      match.maxDelayMs = Math.max(0, toMs(range.ns[range.ns.length - 1]!));
    }
    return match;
  }

  /**
   * The stage to play next for `object`, chosen at random by weight, with its delay; undefined
   * when nothing matches or evaluation fails (reported through options.onError).
   */
  match(object: unknown): StageMatch | undefined {
    try {
      return this.matchOrThrow(object);
    } catch (error) {
      if (!(error instanceof StageEvaluationError)) throw error;
      this.options.onError?.(error);
      return undefined;
    }
  }

  /** Like match(), but throws StageEvaluationError. */
  matchOrThrow(object: unknown): StageMatch | undefined {
    const chosen = chooseCandidate(this.candidates(object), this.options.random);
    return chosen === undefined ? undefined : this.toMatch(chosen, object, true);
  }

  /**
   * Every stage that could be chosen (kwok's ListAllPossible), each with its weight and its
   * delay range (delayMs = the lower bound); no randomness. Throws StageEvaluationError.
   */
  listAllPossible(object: unknown): StageMatch[] {
    return possibleCandidates(this.candidates(object)).map((c) => this.toMatch(c, object, false));
  }
}

export { StageEvaluationError };

/**
 * The pure core of `kwokts stage test -c STAGES.yaml -f OBJECT.yaml [--now T] [--steps N]`:
 * which stages could play for an object (kwok's ListAllPossible), their weight and possible
 * delay, and the exact actions they would send — in the structure of kwok's stage testdata
 * harness (kustomize/stage/stage_test.go), so the result prints as YAML next to kwok's
 * *.output.yaml files. With `steps`, the chosen stage's actions are applied to a local copy of the
 * object and matching is repeated, N times (a delete ends the run).
 *
 * Object-specific template functions get deterministic stand-ins: the node is the first address
 * of `cidr` (default 10.0.0.0/24, so 10.0.0.1), pods get the following addresses in order of first
 * use. Pass `funcs` to replace any function (e.g. kwok's "<Now>" placeholder stubs).
 */
import type { Stage } from './api/stage-types.js';
import { PATCH_MEDIA_TYPES, type StageAction } from './engine/actions.js';
import { isJsonObject } from './engine/json-value.js';
import { applyAction } from './engine/patch-effect.js';
import { planActions } from './engine/plan-actions.js';
import { DEFAULT_KWOK_VERSION } from '../gocompat/gotpl/index.js';
import type { FuncMap, RenderTemplate } from './engine/render.js';
import { StageSet, type StageMatch } from './engine/stage-set.js';
import { UsageError } from '../util/errors.js';

export interface StageTestOptions {
  /** "Now" for delays computed from timestamps and for the Now template function. */
  now: Date;
  /** Replay the chosen stage this many times. Default 0. */
  steps?: number;
  /** Range for the stand-in node and pod IPs. Default 10.0.0.0/24. */
  cidr?: string;
  /** Template functions replacing the stand-ins and kwok's defaults. */
  funcs?: FuncMap;
  renderTemplate?: RenderTemplate;
  /**
   * v1 Pod/Node as typed objects, as the kwok controller sees them (patches without a type are
   * strategic). Default true; false reproduces kwok's testdata harness, which loads unstructured
   * objects (merge).
   */
  typedCoreKinds?: boolean;
  /** Chooses among several matching stages when stepping. Default () => 0 (deterministic). */
  random?: () => number;
  /** kwok version for the Version function. Default: the template engine's DEFAULT_KWOK_VERSION. */
  version?: string;
}

/** One action as kwok's harness prints it. */
export type ReportedAction = Record<string, unknown>;

export interface StageReport {
  stage: string;
  /** Nanoseconds: [d], or [min, max) when a jitter widens it; absent when the stage has no delay. */
  delay?: (number | bigint)[];
  /** Absent when weightFrom yields no usable weight. */
  weight?: number;
  next: ReportedAction[];
}

export interface StepReport {
  step: number;
  /** The stage played; absent when nothing matched (the run stops). */
  stage?: string;
  delay?: number | bigint;
  next?: ReportedAction[];
  deleted?: boolean;
}

export interface StageTestReport {
  apiGroup: string;
  kind: string;
  name: string;
  namespace?: string;
  stages: StageReport[];
  steps?: StepReport[];
  /** The object after the replayed steps (absent if it was deleted or no steps ran). */
  object?: Record<string, unknown>;
}

function exactNumber(ns: bigint): number | bigint {
  const n = Number(ns);
  return BigInt(n) === ns ? n : ns;
}

/** kwok's Now: RFC3339Nano, trailing zeros of the fraction trimmed. */
export function formatRFC3339Nano(d: Date): string {
  return d.toISOString().replace(/\.(\d*?)0+Z$/, (_, digits: string) => (digits === '' ? 'Z' : `.${digits}Z`));
}

function ipv4Pool(cidr: string): (offset: number) => string {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!m || m.slice(1, 5).some((p) => Number(p) > 255) || Number(m[5]) > 32) throw new UsageError(`invalid --cidr ${JSON.stringify(cidr)}`, { hint: 'use an IPv4 CIDR such as 10.0.0.0/24' });
  const bits = Number(m[5]);
  const base = m.slice(1, 5).reduce((acc, p) => acc * 256 + Number(p), 0);
  const network = bits === 0 ? 0 : base - (base % 2 ** (32 - bits));
  return (offset) => {
    const v = network + offset;
    return [24, 16, 8, 0].map((s) => Math.floor(v / 2 ** s) % 256).join('.');
  };
}

/** Deterministic stand-ins for the functions the kwok controllers add per object. */
function standInFuncs(object: Record<string, unknown>, options: StageTestOptions, ip: (offset: number) => string, clock: () => Date): FuncMap {
  const nodeIP = ip(1);
  const podIPs = new Map<string, string>();
  const podIP = (...key: unknown[]): string => {
    const k = JSON.stringify(key);
    let v = podIPs.get(k);
    if (v === undefined) {
      v = ip(2 + podIPs.size);
      podIPs.set(k, v);
    }
    return v;
  };
  const meta = isJsonObject(object.metadata) ? object.metadata : {};
  const podIPWith = (_node: unknown, hostNetwork: unknown, uid: unknown, name: unknown, namespace: unknown): string =>
    hostNetwork === true ? nodeIP : podIP(uid, name, namespace);
  return {
    Now: () => formatRFC3339Nano(clock()),
    StartTime: () => formatRFC3339Nano(options.now),
    Version: () => options.version ?? DEFAULT_KWOK_VERSION,
    NodeIP: () => nodeIP,
    NodeName: () => (typeof meta.name === 'string' ? meta.name : ''),
    NodePort: () => 10250,
    PodIP: () => podIP(meta.uid, meta.name, meta.namespace),
    NodeIPWith: () => nodeIP,
    NodeIPsWith: () => [nodeIP],
    PodIPWith: podIPWith,
    PodIPsWith: (...args: unknown[]) => [podIPWith(args[0], args[1], args[2], args[3], args[4])],
    Name: () => (typeof meta.name === 'string' ? meta.name : ''),
    Namespace: () => (typeof meta.namespace === 'string' ? meta.namespace : ''),
    Index: () => 0,
  };
}

/** One action in kwok's harness format (patch/apply bodies under `data`, MIME types). */
export function reportAction(action: StageAction): ReportedAction {
  switch (action.kind) {
    case 'event':
      return { kind: 'event', type: action.type, reason: action.reason, message: action.message };
    case 'delete':
      return { kind: 'delete' };
    case 'finalizers':
      return { kind: 'patch', type: PATCH_MEDIA_TYPES.json, data: action.patch };
    case 'patch': {
      const out: ReportedAction = { kind: 'patch', type: PATCH_MEDIA_TYPES[action.patchType] };
      if (action.subresource) out.subresource = action.subresource;
      out.data = action.body;
      if (action.impersonation) out.impersonation = action.impersonation;
      return out;
    }
    case 'apply': {
      const out: ReportedAction = { kind: 'apply', type: PATCH_MEDIA_TYPES[action.applyType] };
      if (action.subresource) out.subresource = action.subresource;
      out.data = action.object;
      if (action.impersonation) out.impersonation = action.impersonation;
      return out;
    }
  }
}

function reportNext(stage: Stage, actions: StageAction[]): ReportedAction[] {
  const next = actions.map(reportAction);
  if (stage.immediateNextStage) next.push({ kind: 'immediate' });
  return next;
}

function resourceOf(object: Record<string, unknown>): { apiGroup: string; kind: string; name: string; namespace?: string } {
  const apiVersion = object.apiVersion;
  const kind = object.kind;
  if (typeof apiVersion !== 'string' || apiVersion === '' || typeof kind !== 'string' || kind === '') {
    throw new UsageError('the object needs apiVersion and kind', { hint: 'give a complete Kubernetes object with -f' });
  }
  const meta = isJsonObject(object.metadata) ? object.metadata : {};
  const out: { apiGroup: string; kind: string; name: string; namespace?: string } = { apiGroup: apiVersion, kind, name: typeof meta.name === 'string' ? meta.name : '' };
  if (typeof meta.namespace === 'string' && meta.namespace !== '') out.namespace = meta.namespace;
  return out;
}

/**
 * Evaluates `stages` against `object`. Throws StageEvaluationError (a CEL error) or
 * StageRenderError (a template error) like kwok's harness fails the case.
 */
export function testStages(stages: readonly Stage[], object: Record<string, unknown>, options: StageTestOptions): StageTestReport {
  // A bad --cidr is refused whether or not a stage's template ends up asking for an IP.
  const ipPool = ipv4Pool(options.cidr ?? '10.0.0.0/24');
  const resource = resourceOf(object);
  let now = options.now;
  const clock = (): Date => now;
  const funcsFor = (obj: Record<string, unknown>): FuncMap => ({ ...standInFuncs(obj, options, ipPool, clock), ...options.funcs });
  const engineOptions = {
    now: clock,
    random: options.random ?? (() => 0),
    typedCoreKinds: options.typedCoreKinds ?? true,
    ...(options.renderTemplate ? { renderTemplate: options.renderTemplate } : {}),
  };
  const set = new StageSet(stages, engineOptions).forResource(resource.apiGroup, resource.kind);

  const report: StageTestReport = { ...resource, stages: [] };
  for (const match of set.listAllPossible(object)) {
    const entry: StageReport = { stage: match.stage.name, next: [] };
    if (match.delayRangeNs) entry.delay = match.delayRangeNs.map(exactNumber);
    if (!match.weightUnset) entry.weight = match.weight;
    entry.next = reportNext(match.stage, planActions(match, object, funcsFor(object)));
    report.stages.push(entry);
  }

  const steps = options.steps ?? 0;
  if (steps <= 0) return report;
  report.steps = [];
  let current: Record<string, unknown> = structuredClone(object);
  for (let i = 1; i <= steps; i++) {
    const match: StageMatch | undefined = set.matchOrThrow(current);
    if (match === undefined) {
      report.steps.push({ step: i });
      break;
    }
    if (match.delayNs !== undefined && match.delayNs > 0n) now = new Date(now.getTime() + match.delayMs);
    const actions = planActions(match, current, funcsFor(current));
    const step: StepReport = { step: i, stage: match.stage.name, next: reportNext(match.stage, actions) };
    if (match.delayNs !== undefined) step.delay = exactNumber(match.delayNs);
    report.steps.push(step);
    let deleted = false;
    for (const action of actions) {
      const effect = applyAction(current, action);
      if (effect.deleted) {
        deleted = true;
        break;
      }
      current = effect.object;
    }
    if (deleted) {
      step.deleted = true;
      return report;
    }
  }
  report.object = current;
  return report;
}

/**
 * Turns a stage's steps into StageActions for one object (kwok's DoSteps, minus the API calls).
 * For each step, in order: its event (always, even after a delete); then, unless an earlier step
 * deleted the object, its finalizers patch (skipped when empty), delete (which ends the step),
 * patch and apply. Templates are rendered against the object as it was when the stage matched;
 * finalizer patches are computed from the finalizers as updated by earlier finalizer steps.
 *
 * Patch bodies: merge/strategic with `root: X` become {X: rendered}; json patches with a root get
 * "/X" prefixed to every path (each op keeps only op, path, value, from, as kwok re-encodes them).
 * A patch without a type is strategic for v1 Pod/Node and merge otherwise — except that kwok's
 * stage test harness loads objects as unstructured, which makes them merge too
 * (`typedCoreKinds: false`). A strategic patch's keyed lists whose items share a key (a dual-stack
 * node's addresses) are left out when unchanged or sent as replacements (./ambiguous-lists.ts).
 */
import type { Stage, StageApply, StagePatch, StageResourceRef } from '../api/stage-types.js';
import type { ApplyType, PatchType, StageAction } from './actions.js';
import { replaceAmbiguousKeyedLists } from './ambiguous-lists.js';
import { finalizersPatch } from './finalizers.js';
import { applyJsonPatch, type JsonPatchOp } from './json-patch.js';
import { isJsonObject } from './json-value.js';
import { renderToJson, renderWithGotpl, StageRenderError, type FuncMap, type RenderTemplate } from './render.js';

export interface PlanOptions {
  /** Template renderer; defaults to ./gotpl. */
  renderTemplate?: RenderTemplate;
  /** Functions under the per-call ones (e.g. kwok's Now/Quote/YAML/NodeConditions). */
  funcs?: FuncMap;
  /** Treat v1 Pod/Node as typed objects (default patch type strategic). Default true. */
  typedCoreKinds?: boolean;
}

function defaultPatchType(ref: StageResourceRef, typedCoreKinds: boolean): PatchType {
  return typedCoreKinds && ref.apiGroup === 'v1' && (ref.kind === 'Pod' || ref.kind === 'Node') ? 'strategic' : 'merge';
}

function prefixJsonPatch(body: unknown, root: string): JsonPatchOp[] {
  if (!Array.isArray(body)) throw new StageRenderError('a json patch template must render a list of operations');
  return body.map((item) => {
    if (!isJsonObject(item)) throw new StageRenderError('a json patch operation must be a mapping');
    const op: JsonPatchOp = { op: item.op as JsonPatchOp['op'], path: `/${root}${typeof item.path === 'string' ? item.path : ''}` };
    if (item.value !== undefined) op.value = item.value;
    if (typeof item.from === 'string' && item.from !== '') op.from = item.from;
    return op;
  });
}

function planPatch(patch: StagePatch, object: unknown, funcs: FuncMap, render: RenderTemplate, ref: StageResourceRef, typed: boolean): StageAction {
  const patchType = patch.type ?? defaultPatchType(ref, typed);
  const rendered = renderToJson(render, patch.template, object, funcs);
  let body: unknown = rendered;
  if (patch.root) body = patchType === 'json' ? prefixJsonPatch(rendered, patch.root) : { [patch.root]: rendered };
  if (patchType === 'strategic') body = replaceAmbiguousKeyedLists(body, object);
  const action: StageAction = { kind: 'patch', patchType, body };
  if (patch.subresource) action.subresource = patch.subresource;
  if (patch.impersonation) action.impersonation = patch.impersonation.username;
  return action;
}

function planApply(apply: StageApply, object: unknown, funcs: FuncMap, render: RenderTemplate): StageAction {
  const rendered = renderToJson(render, apply.template, object, funcs);
  if (!isJsonObject(rendered) || typeof rendered.apiVersion !== 'string' || typeof rendered.kind !== 'string' || rendered.apiVersion === '' || rendered.kind === '') {
    throw new StageRenderError('template must include apiVersion and kind');
  }
  const applyType: ApplyType = apply.type ?? 'apply';
  const action: StageAction = { kind: 'apply', applyType, object: rendered };
  if (apply.subresource) action.subresource = apply.subresource;
  if (apply.impersonation) action.impersonation = apply.impersonation.username;
  return action;
}

function currentFinalizers(object: unknown): string[] {
  const f = (object as { metadata?: { finalizers?: unknown } } | null)?.metadata?.finalizers;
  return Array.isArray(f) ? f.filter((v): v is string => typeof v === 'string') : [];
}

/** The base functions with the per-object ones over them, by the identity of both maps. */
const merged = new WeakMap<FuncMap, WeakMap<FuncMap, FuncMap>>();
const NO_BASE: FuncMap = {};

/**
 * `{ ...base, ...funcs }`, built once per pair of maps. The controllers pass the same two maps for
 * every object they play (the per-object functions read the object's name from their arguments),
 * and a copy per play was a dozen properties copied for every pod. Neither map is changed after
 * it is handed over, so the merged copy stays right.
 */
function mergedFuncs(base: FuncMap | undefined, funcs: FuncMap): FuncMap {
  const key = base ?? NO_BASE;
  let byFuncs = merged.get(key);
  if (byFuncs === undefined) merged.set(key, (byFuncs = new WeakMap()));
  let all = byFuncs.get(funcs);
  if (all === undefined) byFuncs.set(funcs, (all = { ...base, ...funcs }));
  return all;
}

/** A stage, or a match carrying its stage and the options of the StageSet that made it. */
export type PlanTarget = Stage | { stage: Stage; planOptions?: PlanOptions };

/**
 * The actions for running a stage on `object`. `funcs` are the per-object template functions
 * (NodeIP, PodIPWith, ...); they override `options.funcs`. Without `options`, a match uses its
 * StageSet's options. Throws StageRenderError.
 */
export function planActions(target: PlanTarget, object: unknown, funcs: FuncMap = {}, options?: PlanOptions): StageAction[] {
  const stage = 'steps' in target ? target : target.stage;
  options ??= ('steps' in target ? undefined : target.planOptions) ?? {};
  const render = options.renderTemplate ?? renderWithGotpl;
  const allFuncs = mergedFuncs(options.funcs, funcs);
  const typed = options.typedCoreKinds ?? true;
  const actions: StageAction[] = [];
  let finalizers = currentFinalizers(object);
  let deleted = false;
  for (const step of stage.steps) {
    if (step.event) actions.push({ kind: 'event', type: step.event.type, reason: step.event.reason, message: step.event.message });
    if (deleted) continue;
    if (step.finalizers) {
      const ops = finalizersPatch(finalizers, step.finalizers);
      if (ops.length > 0) {
        actions.push({ kind: 'finalizers', patch: ops });
        const next = applyJsonPatch({ metadata: { finalizers } }, ops) as { metadata: { finalizers?: string[] } };
        finalizers = next.metadata.finalizers ?? [];
      }
    }
    if (step.delete) {
      actions.push({ kind: 'delete' });
      deleted = true;
      continue;
    }
    if (step.patch) actions.push(planPatch(step.patch, object, allFuncs, render, stage.resourceRef, typed));
    if (step.apply) actions.push(planApply(step.apply, object, allFuncs, render));
  }
  return actions;
}

/**
 * The stage engine: pure functions from (Stage, object) to decisions and action descriptors.
 * No I/O and no clock: `now` and `random` are injected, templates go through a RenderTemplate
 * (default: ./gotpl). Stages come from `parseStages` in src/kwok/api.
 *
 * Usage (controller):
 *
 *   import { parseStages } from '../api/index.js';
 *   import { StageSet, planActions, patchChangesObject } from '../engine/index.js';
 *
 *   const { stages, errors } = parseStages(documents, 'kwok.yaml');   // log `errors`, keep going
 *   const all = new StageSet(stages, { now: () => new Date(), random: Math.random,
 *                                      funcs: baseFuncs, onError: (e) => log.warn(e.message) });
 *   const pods = all.forResource('v1', 'Pod');
 *
 *   const match = pods.match(pod);                // undefined: nothing to do
 *   if (match) setTimeout(() => {                 // match.delayMs (0 = now)
 *     for (const action of planActions(match, pod, podFuncs)) {   // uses the set's options
 *       if (!patchChangesObject(pod, action)) continue;   // kwok skips no-op patches
 *       // event | finalizers (JSON patch) | delete | patch | apply  → API call
 *     }
 *     if (match.stage.immediateNextStage) { ... match the object the API returned ... }
 *   }, match.delayMs);
 *
 * StageSet.match throws nothing for CEL errors: it reports them via `onError` and returns
 * undefined (kwok skips the object); planActions throws StageRenderError for template problems.
 */
export { StageSet, StageEvaluationError } from './stage-set.js';
export type { StageEngineOptions, StageMatch } from './stage-set.js';
export { planActions } from './plan-actions.js';
export type { PlanOptions, PlanTarget } from './plan-actions.js';
export { patchChangesObject, applyAction } from './patch-effect.js';
export { mergePatchShared, strategicMergeIsExact, strategicMergePatchShared } from './merge-patch.js';
export { isJsonObject } from './json-value.js';
export type { JsonObject } from './json-value.js';
export type { ObjectEffect } from './patch-effect.js';
export { PATCH_MEDIA_TYPES } from './actions.js';
export type { StageAction, PatchType, ApplyType, JsonPatchOp } from './actions.js';
export { StageRenderError, renderGotplOnly, renderWithGotpl } from './render.js';
export type { RenderTemplate, FuncMap } from './render.js';
export { compileJq, JqCompileError } from '../../gocompat/jq/index.js';
export type { JqQuery } from '../../gocompat/jq/index.js';
export { compileCel, CelCompileError } from '../cel/cel.js';
export type { CelProgram, CelRuntime } from '../cel/cel.js';
export { parseGoDuration } from '../../gocompat/go-duration.js';

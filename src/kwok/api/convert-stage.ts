/**
 * A validated v1alpha1 Stage document → the internal Stage, doing kwok's conversions:
 * - spec.next (deprecated) becomes steps when spec.steps is empty, in kwok's order: event,
 *   finalizers, the patches (or, only when there are none, statusTemplate as a status patch with
 *   subresource statusSubresource||"status" and impersonation statusPatchAs), then delete;
 * - flat matchExpressions {key, operator, values} become {jq: ...}, a flat {expression} becomes
 *   {cel: ...}, and expressionFrom becomes jq.expression;
 * - resourceRef.apiGroup defaults to "v1"; a stage without a selector is dropped (kwok ignores it).
 * Semantic problems (bad operator, wrong number of values, empty matchExpression) are returned as
 * messages naming the field; expressions and templates are checked later, in parse-stages.ts.
 */
import type { ExpressionFrom, SelectorExpression, SelectorOperator, Stage, StageFinalizers, StagePatch, StageStep } from './stage-types.js';
import { SELECTOR_OPERATORS } from './stage-types.js';
import type {
  ExpressionFromDocument,
  SelectorExpressionDocument,
  StageDocument,
  StageEventDocument,
  StageFinalizersDocument,
  StageNextDocument,
  StagePatchDocument,
  StageStepDocument,
} from './stage-schema.js';

export type ConvertResult = { stage: Stage; problems: [] } | { stage: undefined; problems: string[]; dropped?: boolean };

export function convertExpressionFrom(from: ExpressionFromDocument | null | undefined): ExpressionFrom | undefined {
  if (!from) return undefined;
  const out: ExpressionFrom = {};
  if (from.jq) out.jq = { expression: from.jq.expression };
  else if (from.expressionFrom) out.jq = { expression: from.expressionFrom };
  if (from.cel) out.cel = { expression: from.cel.expression };
  return out;
}

function checkOperator(operator: string, values: string[], path: string, problems: string[]): operator is SelectorOperator {
  if (!(SELECTOR_OPERATORS as readonly string[]).includes(operator)) {
    problems.push(`${path}.operator: operator ${JSON.stringify(operator)} is not supported (want one of ${SELECTOR_OPERATORS.join(', ')})`);
    return false;
  }
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
    problems.push(`${path}.values: for 'In', 'NotIn' operators, values set can't be empty`);
    return false;
  }
  if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length !== 0) {
    problems.push(`${path}.values: values set must be empty for exists and does not exist`);
    return false;
  }
  return true;
}

export function convertSelectorExpression(item: SelectorExpressionDocument, path: string, problems: string[]): SelectorExpression | undefined {
  if (item.jq) {
    const values = item.jq.values ?? [];
    if (!checkOperator(item.jq.operator, values, `${path}.jq`, problems)) return undefined;
    return { jq: { key: item.jq.key, operator: item.jq.operator as SelectorOperator, values } };
  }
  if (item.cel) return { cel: { expression: item.cel.expression } };
  if (item.key) {
    const values = item.values ?? [];
    if (!checkOperator(item.operator ?? '', values, path, problems)) return undefined;
    return { jq: { key: item.key, operator: item.operator as SelectorOperator, values } };
  }
  if (item.expression) return { cel: { expression: item.expression } };
  problems.push(`${path}: invalid expression: set one of jq, cel or key`);
  return undefined;
}

function convertEvent(e: StageEventDocument): StageStep['event'] {
  return { type: e.type ?? '', reason: e.reason ?? '', message: e.message ?? '' };
}

function convertFinalizers(f: StageFinalizersDocument): StageFinalizers {
  return {
    add: (f.add ?? []).map((i) => i.value ?? ''),
    remove: (f.remove ?? []).map((i) => i.value ?? ''),
    empty: f.empty ?? false,
  };
}

function convertPatch(p: StagePatchDocument): StagePatch {
  const out: StagePatch = { template: p.template ?? '' };
  if (p.subresource) out.subresource = p.subresource;
  if (p.root) out.root = p.root;
  if (p.type) out.type = p.type;
  if (p.impersonation) out.impersonation = { username: p.impersonation.username };
  return out;
}

function convertStep(s: StageStepDocument): StageStep {
  const out: StageStep = {};
  if (s.event) out.event = convertEvent(s.event);
  if (s.finalizers) out.finalizers = convertFinalizers(s.finalizers);
  if (s.delete) out.delete = true;
  if (s.patch) out.patch = convertPatch(s.patch);
  if (s.apply) {
    const a = s.apply;
    out.apply = { template: a.template ?? '' };
    if (a.subresource) out.apply.subresource = a.subresource;
    if (a.type) out.apply.type = a.type;
    if (a.impersonation) out.apply.impersonation = { username: a.impersonation.username };
  }
  return out;
}

/** kwok's Convert_v1alpha1_StageNext_To_internalversion_StageNext, expressed as steps. */
export function nextToSteps(next: StageNextDocument): StageStep[] {
  const steps: StageStep[] = [];
  if (next.event) steps.push({ event: convertEvent(next.event) });
  if (next.finalizers) steps.push({ finalizers: convertFinalizers(next.finalizers) });
  const patches = next.patches ?? [];
  if (patches.length > 0) {
    for (const p of patches) steps.push({ patch: convertPatch(p) });
  } else if (next.statusTemplate) {
    const patch: StagePatch = {
      root: 'status',
      template: next.statusTemplate,
      subresource: next.statusSubresource ?? 'status',
    };
    if (patch.subresource === '') delete patch.subresource;
    if (next.statusPatchAs) patch.impersonation = { username: next.statusPatchAs.username };
    steps.push({ patch });
  }
  if (next.delete) steps.push({ delete: true });
  return steps;
}

export function convertStage(doc: StageDocument, source: string): ConvertResult {
  const spec = doc.spec;
  if (spec.selector === null || spec.selector === undefined) return { stage: undefined, problems: [], dropped: true };
  const problems: string[] = [];
  const matchExpressions: SelectorExpression[] = [];
  (spec.selector.matchExpressions ?? []).forEach((item, i) => {
    const converted = convertSelectorExpression(item, `spec.selector.matchExpressions[${i}]`, problems);
    if (converted) matchExpressions.push(converted);
  });
  const stage: Stage = {
    name: doc.metadata.name,
    source,
    resourceRef: { apiGroup: spec.resourceRef.apiGroup || 'v1', kind: spec.resourceRef.kind },
    selector: { matchExpressions },
    weight: spec.weight ?? 0,
    steps: spec.steps && spec.steps.length > 0 ? spec.steps.map(convertStep) : spec.next ? nextToSteps(spec.next) : [],
    immediateNextStage: spec.immediateNextStage ?? false,
  };
  if (spec.selector.matchLabels) stage.selector.matchLabels = { ...spec.selector.matchLabels };
  if (spec.selector.matchAnnotations) stage.selector.matchAnnotations = { ...spec.selector.matchAnnotations };
  const weightFrom = convertExpressionFrom(spec.weightFrom);
  if (weightFrom) stage.weightFrom = weightFrom;
  if (spec.delay) {
    const d = spec.delay;
    stage.delay = {};
    if (d.durationMilliseconds !== null && d.durationMilliseconds !== undefined) stage.delay.durationMilliseconds = d.durationMilliseconds;
    if (d.jitterDurationMilliseconds !== null && d.jitterDurationMilliseconds !== undefined) stage.delay.jitterDurationMilliseconds = d.jitterDurationMilliseconds;
    const durationFrom = convertExpressionFrom(d.durationFrom);
    if (durationFrom) stage.delay.durationFrom = durationFrom;
    const jitterFrom = convertExpressionFrom(d.jitterDurationFrom);
    if (jitterFrom) stage.delay.jitterDurationFrom = jitterFrom;
  }
  if (problems.length > 0) return { stage: undefined, problems };
  return { stage, problems: [] };
}

/**
 * A Stage document in the current v1alpha1 spelling, for `config convert`: kwok's deprecated
 * forms become the current ones by the same conversions the engine applies when it reads them
 * (convert-stage.ts), so a converted stage behaves exactly as the original did:
 * - spec.next → spec.steps (when there are no steps; with steps, kwok ignores next, so it goes);
 * - a flat matchExpression {key, operator, values} → {jq: …}, a flat {expression} → {cel: …};
 * - expressionFrom → jq.expression in weightFrom, delay.durationFrom and delay.jitterDurationFrom.
 * Everything else (metadata, status, fields already current) is kept as written. kwokctl writes
 * `next` back next to `steps`; we do not, so the file has one source of truth.
 */
import { convertExpressionFrom, convertSelectorExpression, nextToSteps } from './convert-stage.js';
import type { ExpressionFromDocument, SelectorExpressionDocument, StageNextDocument } from './stage-schema.js';
import type { StageStep } from './stage-types.js';

type Doc = Record<string, unknown>;

const isRecord = (value: unknown): value is Doc => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `doc` must have passed parseStages (its shape is trusted here); the input is not modified. */
export function upgradeStageDocument(doc: Readonly<Doc>): Doc {
  const out = structuredClone(doc) as Doc;
  const spec = out.spec;
  if (!isRecord(spec)) return out;
  const selector = spec.selector;
  if (isRecord(selector) && Array.isArray(selector.matchExpressions)) {
    selector.matchExpressions = selector.matchExpressions.map((item: SelectorExpressionDocument, i) => {
      if (item.jq || item.cel) return item;
      const converted = convertSelectorExpression(item, `spec.selector.matchExpressions[${i}]`, []);
      // Exists and DoesNotExist take no values: an empty list would only be noise.
      if (converted?.jq && converted.jq.values.length === 0) return { jq: { key: converted.jq.key, operator: converted.jq.operator } };
      return converted ?? item;
    });
  }
  upgradeExpressionFrom(spec, 'weightFrom');
  if (isRecord(spec.delay)) {
    upgradeExpressionFrom(spec.delay, 'durationFrom');
    upgradeExpressionFrom(spec.delay, 'jitterDurationFrom');
  }
  if (spec.next !== undefined) {
    const hasSteps = Array.isArray(spec.steps) && spec.steps.length > 0;
    if (!hasSteps && isRecord(spec.next)) spec.steps = nextToSteps(spec.next as StageNextDocument).map(stepDocument);
    delete spec.next;
  }
  return out;
}

function upgradeExpressionFrom(parent: Doc, field: string): void {
  const from = parent[field] as ExpressionFromDocument | null | undefined;
  if (!isRecord(from) || from.expressionFrom === undefined || from.expressionFrom === null) return;
  parent[field] = convertExpressionFrom(from) ?? {};
}

/** An internal step as a document: the engine's defaults (empty strings, empty lists) left out. */
function stepDocument(step: StageStep): Doc {
  const out: Doc = {};
  if (step.event) out.event = Object.fromEntries(Object.entries(step.event).filter(([, v]) => v !== ''));
  if (step.finalizers) {
    const f = step.finalizers;
    out.finalizers = {
      ...(f.add.length > 0 ? { add: f.add.map((value) => ({ value })) } : {}),
      ...(f.remove.length > 0 ? { remove: f.remove.map((value) => ({ value })) } : {}),
      ...(f.empty ? { empty: true } : {}),
    };
  }
  if (step.patch) out.patch = { ...step.patch };
  if (step.apply) out.apply = { ...step.apply };
  if (step.delete) out.delete = true;
  return out;
}

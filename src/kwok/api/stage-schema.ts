/**
 * zod schema of a kwok.x-k8s.io/v1alpha1 Stage document as users write it, including kwok's
 * deprecated spellings (spec.next, flat matchExpressions, expressionFrom). `spec` is strict: an
 * unknown field is an error naming it. `null` is accepted wherever Go's JSON decoding accepts it
 * (pointers, slices, maps and strings), because YAML's empty value is null.
 */
import { z } from 'zod';

const str = z.string().nullish();
const int64NonNegative = z.int().min(0).max(Number.MAX_SAFE_INTEGER);

const impersonation = z.strictObject({ username: z.string() });

const expressionFrom = z.strictObject({
  jq: z.strictObject({ expression: z.string() }).nullish(),
  cel: z.strictObject({ expression: z.string() }).nullish(),
  /** Deprecated: same as jq.expression. */
  expressionFrom: str,
});

const jqRequirement = z.strictObject({
  key: z.string(),
  operator: z.string(),
  values: z.array(z.string()).nullish(),
});

const selectorExpression = z.strictObject({
  jq: jqRequirement.nullish(),
  cel: z.strictObject({ expression: z.string() }).nullish(),
  /** Deprecated flat jq form. */
  key: str,
  operator: str,
  values: z.array(z.string()).nullish(),
  /** Deprecated flat CEL form (kwok v0.6). */
  expression: str,
});

const selector = z.strictObject({
  matchLabels: z.record(z.string(), z.string()).nullish(),
  matchAnnotations: z.record(z.string(), z.string()).nullish(),
  matchExpressions: z.array(selectorExpression).nullish(),
});

const event = z.strictObject({ type: str, reason: str, message: str });

const finalizerItem = z.strictObject({ value: str });

const finalizers = z.strictObject({
  add: z.array(finalizerItem).nullish(),
  remove: z.array(finalizerItem).nullish(),
  empty: z.boolean().nullish(),
});

const patch = z.strictObject({
  subresource: str,
  root: str,
  template: str,
  type: z.enum(['json', 'merge', 'strategic']).nullish(),
  impersonation: impersonation.nullish(),
});

const apply = z.strictObject({
  template: str,
  subresource: str,
  type: z.enum(['apply', 'merge', 'strategic']).nullish(),
  impersonation: impersonation.nullish(),
});

const step = z.strictObject({
  event: event.nullish(),
  finalizers: finalizers.nullish(),
  delete: z.boolean().nullish(),
  patch: patch.nullish(),
  apply: apply.nullish(),
});

const next = z.strictObject({
  event: event.nullish(),
  finalizers: finalizers.nullish(),
  delete: z.boolean().nullish(),
  patches: z.array(patch).nullish(),
  statusTemplate: str,
  statusSubresource: str,
  statusPatchAs: impersonation.nullish(),
});

const delay = z.strictObject({
  durationMilliseconds: int64NonNegative.nullish(),
  durationFrom: expressionFrom.nullish(),
  jitterDurationMilliseconds: int64NonNegative.nullish(),
  jitterDurationFrom: expressionFrom.nullish(),
});

export const stageSpecSchema = z.strictObject({
  resourceRef: z.strictObject({ apiGroup: str, kind: z.string().min(1) }),
  selector: selector.nullish(),
  weight: int64NonNegative.nullish(),
  weightFrom: expressionFrom.nullish(),
  delay: delay.nullish(),
  next: next.nullish(),
  steps: z.array(step).nullish(),
  immediateNextStage: z.boolean().nullish(),
});

/** The document: metadata and status are not validated beyond what the engine reads. */
export const stageDocumentSchema = z.object({
  apiVersion: z.string().nullish(),
  kind: z.literal('Stage'),
  metadata: z.object({ name: z.string().min(1) }),
  spec: stageSpecSchema,
});

export type StageDocument = z.infer<typeof stageDocumentSchema>;
export type StageSpecDocument = z.infer<typeof stageSpecSchema>;
export type ExpressionFromDocument = z.infer<typeof expressionFrom>;
export type SelectorExpressionDocument = z.infer<typeof selectorExpression>;
export type StagePatchDocument = z.infer<typeof patch>;
export type StageNextDocument = z.infer<typeof next>;
export type StageStepDocument = z.infer<typeof step>;
export type StageFinalizersDocument = z.infer<typeof finalizers>;
export type StageEventDocument = z.infer<typeof event>;

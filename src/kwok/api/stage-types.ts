/**
 * The Stage API (kwok.x-k8s.io/v1alpha1, kind Stage) in its normalised, internal form: what
 * parseStages() returns after validation and after converting kwok's deprecated spellings
 * (spec.next, flat matchExpressions, expressionFrom). The engine only ever sees this form.
 */

/** `spec.resourceRef`: apiGroup is group/version ("v1", "apps/v1"), defaulted to "v1". */
export interface StageResourceRef {
  apiGroup: string;
  kind: string;
}

export type SelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export const SELECTOR_OPERATORS: readonly SelectorOperator[] = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** A jq requirement: `key` is a jq expression run on the object. */
export interface JqRequirement {
  key: string;
  operator: SelectorOperator;
  values: string[];
}

export interface CelExpression {
  expression: string;
}

/** One item of selector.matchExpressions: exactly one of jq / cel. */
export type SelectorExpression = { jq: JqRequirement; cel?: undefined } | { cel: CelExpression; jq?: undefined };

export interface StageSelector {
  /** Every pair must be present and equal (absent = no constraint; {} matches everything). */
  matchLabels?: Record<string, string>;
  matchAnnotations?: Record<string, string>;
  matchExpressions: SelectorExpression[];
}

/** A dynamic value: CEL wins over jq when both are given (as in kwok). */
export interface ExpressionFrom {
  jq?: { expression: string };
  cel?: { expression: string };
}

export interface StageDelay {
  durationMilliseconds?: number;
  durationFrom?: ExpressionFrom;
  jitterDurationMilliseconds?: number;
  /** Only the jq form is honoured here; kwok drops a CEL-only jitterDurationFrom. */
  jitterDurationFrom?: ExpressionFrom;
}

export interface StageEvent {
  type: string;
  reason: string;
  message: string;
}

export interface StageFinalizers {
  add: string[];
  remove: string[];
  empty: boolean;
}

export type StagePatchType = 'json' | 'merge' | 'strategic';
export type StageApplyType = 'apply' | 'merge' | 'strategic';

export interface Impersonation {
  username: string;
}

export interface StagePatch {
  subresource?: string;
  /** Merge/strategic: the rendered document becomes {root: doc}; json: "/root" prefixes each path. */
  root?: string;
  template: string;
  /** Unset: strategic for v1 Pod/Node, merge for everything else. */
  type?: StagePatchType;
  impersonation?: Impersonation;
}

export interface StageApply {
  template: string;
  subresource?: string;
  type?: StageApplyType;
  impersonation?: Impersonation;
}

/** One entry of spec.steps; each present part runs in the order event, finalizers, delete, patch, apply. */
export interface StageStep {
  event?: StageEvent;
  finalizers?: StageFinalizers;
  delete?: boolean;
  patch?: StagePatch;
  apply?: StageApply;
}

export interface Stage {
  /** metadata.name */
  name: string;
  /** Where the stage was read from (file name), for messages. */
  source: string;
  resourceRef: StageResourceRef;
  selector: StageSelector;
  weight: number;
  weightFrom?: ExpressionFrom;
  delay?: StageDelay;
  steps: StageStep[];
  immediateNextStage: boolean;
}

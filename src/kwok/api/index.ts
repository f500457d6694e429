/** The Stage API: types, YAML reading and validation (see parse-stages.ts for the rules). */
export type {
  CelExpression,
  ExpressionFrom,
  Impersonation,
  JqRequirement,
  SelectorExpression,
  SelectorOperator,
  Stage,
  StageApply,
  StageApplyType,
  StageDelay,
  StageEvent,
  StageFinalizers,
  StagePatch,
  StagePatchType,
  StageResourceRef,
  StageSelector,
  StageStep,
} from './stage-types.js';
export { SELECTOR_OPERATORS } from './stage-types.js';
export { parseStages, STAGE_TEMPLATE_FUNCTION_NAMES } from './parse-stages.js';
export type { ParseStagesResult } from './parse-stages.js';
export { loadKwokDocuments } from './load-documents.js';
export type { KwokDocuments } from './load-documents.js';
export { parseK8sYaml, parseK8sYamlDocuments, YamlSyntaxError } from '../../gocompat/yaml/index.js';
export { upgradeStageDocument } from './upgrade-stage.js';

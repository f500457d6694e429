/**
 * Public surface of src/kwok for the CLI (docs/design/architecture.md: the CLI imports this file,
 * never the internals): the controller process (`kwokts kwok`) and the pure pieces behind `stage test`.
 */
export { runKwokController } from './app/run-kwok-controller.js';
export { checkConfigDocuments } from './app/config-file.js';
export type { RunKwokControllerOptions } from './app/run-kwok-controller.js';
export { renderKwokUsage, kwokFlags } from './app/options.js';
export type { KwokControllerOptions } from './app/options.js';

export { testStages } from './stage-test.js';
export type { StageTestOptions, StageTestReport, StageReport, StepReport, ReportedAction } from './stage-test.js';
export { loadKwokDocuments, parseK8sYamlDocuments, parseStages, YamlSyntaxError } from './api/index.js';
export type { Stage, KwokDocuments } from './api/index.js';

export { checkProviderConfigMaps, PROVIDER_CONFIG_NAME, PROVIDER_TEMPLATES_NAME } from './autoscaler/provider-check.js';
export type { ConfigMapsCheck } from './autoscaler/provider-check.js';

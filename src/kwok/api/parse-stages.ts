/**
 * Stage documents (already parsed from YAML/JSON) → validated internal Stages. Each invalid stage
 * becomes one UsageError naming the file, the stage and the problem, and is skipped so the valid
 * ones keep working. Stages without a selector are dropped silently, as kwok ignores them.
 *
 * Beyond the schema, every jq and CEL expression is compiled and every template parsed here, so a
 * typo is reported at load time instead of on the first matching object.
 */
import { UsageError } from '../../util/errors.js';
import { compileCel } from '../cel/cel.js';
import { compileTemplate, type FuncMap } from '../../gocompat/gotpl/index.js';
import { compileJq } from '../../gocompat/jq/index.js';
import { convertStage } from './convert-stage.js';
import { stageDocumentSchema } from './stage-schema.js';
import type { ExpressionFrom, Stage } from './stage-types.js';
import { describeIssue, objectName } from './schema-problems.js';

export interface ParseStagesResult {
  stages: Stage[];
  errors: UsageError[];
}

/**
 * Functions a stage template may call that the controllers (or kwokctl scale) add per object;
 * Go resolves function names when a template is parsed, so they must be known to check one.
 */
export const STAGE_TEMPLATE_FUNCTION_NAMES = [
  'NodeIP',
  'NodeName',
  'NodePort',
  'PodIP',
  'NodeIPWith',
  'NodeIPsWith',
  'PodIPWith',
  'PodIPsWith',
  'Name',
  'Namespace',
  'Index',
  'AddCIDR',
  'AddIP',
  'Now',
  'StartTime',
  'Version',
  'Quote',
  'YAML',
  'NodeConditions',
] as const;

const templateCheckFuncs: FuncMap = Object.fromEntries(STAGE_TEMPLATE_FUNCTION_NAMES.map((name) => [name, () => '']));

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** undefined when the template parses. */
function templateProblem(template: string): string | undefined {
  try {
    compileTemplate(template.trim(), templateCheckFuncs);
    return undefined;
  } catch (error) {
    return errorText(error);
  }
}

function checkFrom(from: ExpressionFrom | undefined, path: string, problems: string[]): void {
  if (!from) return;
  if (from.jq) {
    try {
      compileJq(from.jq.expression);
    } catch (error) {
      problems.push(`${path}.jq.expression: ${errorText(error)}`);
    }
  }
  if (from.cel) {
    try {
      compileCel(from.cel.expression);
    } catch (error) {
      problems.push(`${path}.cel.expression: ${errorText(error)}`);
    }
  }
}

function expressionProblems(stage: Stage): string[] {
  const problems: string[] = [];
  stage.selector.matchExpressions.forEach((item, i) => {
    const path = `spec.selector.matchExpressions[${i}]`;
    try {
      if (item.jq) compileJq(item.jq.key);
      else compileCel(item.cel.expression);
    } catch (error) {
      problems.push(`${path}: ${errorText(error)}`);
    }
  });
  checkFrom(stage.weightFrom, 'spec.weightFrom', problems);
  checkFrom(stage.delay?.durationFrom, 'spec.delay.durationFrom', problems);
  checkFrom(stage.delay?.jitterDurationFrom, 'spec.delay.jitterDurationFrom', problems);
  stage.steps.forEach((step, i) => {
    for (const part of ['patch', 'apply'] as const) {
      const template = step[part]?.template;
      if (template === undefined) continue;
      const problem = templateProblem(template);
      if (problem !== undefined) problems.push(`spec.steps[${i}].${part}.template: ${problem}`);
    }
  });
  return problems;
}

function schemaProblems(issues: readonly { code: string; path: readonly PropertyKey[]; message: string; keys?: readonly string[] }[]): string[] {
  return issues.map(describeIssue);
}

function nameOf(doc: unknown, index: number): string {
  return objectName(doc, `#${index + 1}`);
}

function invalid(source: string, name: string, problems: string[]): UsageError {
  return new UsageError(`${source}: stage "${name}": ${problems.join('; ')}`, {
    hint: 'fix or remove this Stage; the other stages are still used',
  });
}

/** Validates and normalises Stage documents; `source` (a file name) is used in messages. */
export function parseStages(docs: readonly unknown[], source: string): ParseStagesResult {
  const stages: Stage[] = [];
  const errors: UsageError[] = [];
  docs.forEach((doc, index) => {
    const name = nameOf(doc, index);
    const parsed = stageDocumentSchema.safeParse(doc);
    if (!parsed.success) {
      errors.push(invalid(source, name, schemaProblems(parsed.error.issues as never)));
      return;
    }
    const converted = convertStage(parsed.data, source);
    if (converted.stage === undefined) {
      if (converted.problems.length > 0) errors.push(invalid(source, name, converted.problems));
      return;
    }
    const problems = expressionProblems(converted.stage);
    if (problems.length > 0) {
      errors.push(invalid(source, name, problems));
      return;
    }
    stages.push(converted.stage);
  });
  return { stages, errors };
}

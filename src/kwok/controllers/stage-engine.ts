/**
 * What the controllers need from the (pure) stage engine in src/kwok/engine, stated as our own
 * interfaces so the runtime does not depend on the engine's internals and unit tests can script
 * matches and actions (the action descriptors are the engine's). engine-adapter.ts maps the real
 * engine onto these.
 */
import type { KubeObject } from '../../kube/index.js';
import type { StageAction } from '../engine/index.js';

export type TemplateFunc = (...args: unknown[]) => unknown;
export type FuncMap = Record<string, TemplateFunc>;

// The engine's own action descriptors: declared once, there.
export type { JsonPatchOp, StageAction } from '../engine/index.js';

export interface MatchedStage {
  name: string;
  immediateNextStage: boolean;
}

/** One stage chosen for one object, with its delay already computed. */
export interface StageMatch {
  stage: MatchedStage;
  delayMs: number;
}

/** The stages of one resource kind. */
export interface ResourceStages {
  readonly stageNames: readonly string[];
  match(object: KubeObject): StageMatch | undefined;
  /** Render the matched stage's steps into actions; throws on a template error. */
  planActions(match: StageMatch, object: KubeObject, funcs: FuncMap): StageAction[];
  /** Whether sending `action` (a patch) would change `object`; unchanged patches are skipped. */
  patchChangesObject(object: KubeObject, action: StageAction): boolean;
}

/** Which kind a group of stages is for; apiGroup is group/version as in Stage.spec.resourceRef. */
export interface StageResource {
  apiGroup: string;
  kind: string;
}

/** All configured stages, grouped by resource. */
export interface StageCatalog {
  readonly stageCount: number;
  /** One message per Stage document that was invalid and left out. */
  readonly problems: readonly string[];
  resources(): StageResource[];
  forResource(resource: StageResource): ResourceStages;
}

/**
 * Builds a catalog from Stage documents (parsed YAML/JSON, or Stage CRs). Invalid documents are
 * left out and reported in `problems`; `source` names their origin in those messages.
 */
export type StageCatalogFactory = (documents: readonly unknown[], source?: string) => StageCatalog;

export function stageResourceKey(resource: StageResource): string {
  return `${resource.apiGroup}/${resource.kind}`;
}

export const emptyResourceStages: ResourceStages = {
  stageNames: [],
  match: () => undefined,
  planActions: () => [],
  patchChangesObject: () => true,
};

/**
 * Maps the pure stage engine (src/kwok/api parses Stage documents, src/kwok/engine matches and
 * plans) onto the controller's StageCatalog interface. Everything engine-specific stays in this
 * file: the controllers only see StageMatch/StageAction.
 */
import { parseStages } from '../api/index.js';
import type { Stage } from '../api/index.js';
import { patchChangesObject, planActions, renderGotplOnly, StageSet } from '../engine/index.js';
import type { FuncMap as EngineFuncMap, StageMatch as EngineMatch } from '../engine/index.js';
import { typed } from '../../gocompat/gotpl/index.js';
import type { FuncMap, ResourceStages, StageCatalog, StageCatalogFactory, StageMatch, StageResource } from './stage-engine.js';
import { stageResourceKey } from './stage-engine.js';

/** Our match carries the engine's, so planActions gets the exact stage that matched. */
interface AdaptedMatch extends StageMatch {
  engineMatch: EngineMatch;
}

/**
 * Go checks template calls against parameter types; kwok's per-object functions take strings and
 * a bool (PodIPWith nodeName hostNetwork uid name namespace), so declare them the same way.
 */
const signatures: Record<string, readonly ('string' | 'bool')[]> = {
  NodeIP: [],
  NodeName: [],
  NodePort: [],
  PodIP: [],
  NodeIPWith: ['string'],
  NodeIPsWith: ['string'],
  PodIPWith: ['string', 'bool', 'string', 'string', 'string'],
  PodIPsWith: ['string', 'bool', 'string', 'string', 'string'],
};

/** Declares Go signatures on the controller's functions (once per FuncMap object). */
const typedCache = new WeakMap<FuncMap, EngineFuncMap>();
function withSignatures(funcs: FuncMap): EngineFuncMap {
  let out = typedCache.get(funcs);
  if (!out) {
    out = {};
    for (const [name, fn] of Object.entries(funcs)) {
      const params = signatures[name];
      out[name] = params ? typed(params, (...args: unknown[]) => fn(...args)) : fn;
    }
    typedCache.set(funcs, out);
  }
  return out;
}

function adaptResource(set: StageSet): ResourceStages {
  return {
    stageNames: set.stages.map((s) => s.name),
    match(object) {
      // matchOrThrow: a CEL error surfaces to the controller, which logs it with the object's key.
      const match = set.matchOrThrow(object);
      if (!match) return undefined;
      const adapted: AdaptedMatch = {
        stage: { name: match.stage.name, immediateNextStage: match.stage.immediateNextStage },
        delayMs: match.delayMs,
        engineMatch: match,
      };
      return adapted;
    },
    planActions(match, object, funcs) {
      // Passing the engine's match makes planActions use the StageSet's options (renderer, base funcs).
      return planActions((match as AdaptedMatch).engineMatch, object, withSignatures(funcs));
    },
    patchChangesObject(object, action) {
      return patchChangesObject(object as unknown as Record<string, unknown>, action);
    },
  };
}

export interface EngineCatalogOptions {
  now?: () => Date;
  random?: () => number;
  /** Names the origin of the documents in problem messages ("kwok.yaml", "Stage CRs"). */
  source?: string;
  /** Render the templates kwokts ships by their TypeScript versions (default true; see write-routes.ts). */
  nativeTemplates?: boolean;
}

export function createEngineCatalog(documents: readonly unknown[], options: EngineCatalogOptions = {}): StageCatalog {
  const { stages, errors } = parseStages(documents, options.source ?? 'stages');
  const set = new StageSet(stages, {
    now: options.now ?? (() => new Date()),
    random: options.random ?? Math.random,
    ...(options.nativeTemplates === false ? { renderTemplate: renderGotplOnly } : {}),
  });
  const resources = new Map<string, StageResource>();
  for (const stage of stages as Stage[]) resources.set(stageResourceKey(stage.resourceRef), { apiGroup: stage.resourceRef.apiGroup, kind: stage.resourceRef.kind });
  return {
    stageCount: stages.length,
    problems: errors.map((e) => e.message),
    resources: () => [...resources.values()],
    forResource: (resource) => adaptResource(set.forResource(resource.apiGroup, resource.kind)),
  };
}

/** The default catalog factory of the controller process. */
export const engineCatalogFactory: StageCatalogFactory = (documents, source) => createEngineCatalog(documents, source ? { source } : {});

/** The catalog factory under --write-shortcuts=false: every template through the Go template engine. */
export const gotplCatalogFactory: StageCatalogFactory = (documents, source) => createEngineCatalog(documents, { ...(source ? { source } : {}), nativeTemplates: false });

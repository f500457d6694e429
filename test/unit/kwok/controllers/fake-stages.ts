/**
 * A scripted stage engine for controller tests: each stage is a predicate, a delay and a function
 * from object to actions. Stage "documents" handed to the factory are these objects themselves.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../../../../src/kube/client/types.js';
import type { FuncMap, ResourceStages, StageAction, StageCatalog, StageCatalogFactory, StageMatch, StageResource } from '../../../../src/kwok/controllers/stage-engine.js';

export interface FakeStage {
  name: string;
  kind: string;
  apiGroup?: string;
  matches(object: KubeObject): boolean;
  delayMs?: number;
  immediateNextStage?: boolean;
  actions(object: KubeObject, funcs: FuncMap): StageAction[];
}

function merge(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else base[key] = merge(base[key], value);
  }
  return base;
}

function resourceStages(stages: FakeStage[]): ResourceStages {
  const byName = new Map(stages.map((s) => [s.name, s]));
  return {
    stageNames: stages.map((s) => s.name),
    match(object): StageMatch | undefined {
      const stage = stages.find((s) => s.matches(object));
      return stage ? { stage: { name: stage.name, immediateNextStage: stage.immediateNextStage ?? false }, delayMs: stage.delayMs ?? 0 } : undefined;
    },
    planActions(match, object, funcs) {
      return byName.get(match.stage.name)!.actions(object, funcs);
    },
    patchChangesObject(object, action) {
      if (action.kind !== 'patch' || action.patchType === 'json') return true;
      return !isDeepStrictEqual(merge(object, action.body), object);
    },
  };
}

export const fakeCatalogFactory: StageCatalogFactory = (documents) => {
  const all = documents as FakeStage[];
  const stages = all.filter((stage) => typeof stage.matches === 'function');
  const catalog: StageCatalog = {
    stageCount: stages.length,
    problems: all.filter((stage) => !stages.includes(stage)).map((stage) => `stage "${String((stage as { name?: string }).name)}": invalid`),
    resources(): StageResource[] {
      const seen = new Map<string, StageResource>();
      for (const s of stages) seen.set(`${s.apiGroup ?? 'v1'}/${s.kind}`, { apiGroup: s.apiGroup ?? 'v1', kind: s.kind });
      return [...seen.values()];
    },
    forResource(resource) {
      return resourceStages(stages.filter((s) => (s.apiGroup ?? 'v1') === resource.apiGroup && s.kind === resource.kind));
    },
  };
  return catalog;
};

/** A node-initialize-like stage: Ready=True when not ready yet. */
export const nodeReadyStage: FakeStage = {
  name: 'node-initialize',
  kind: 'Node',
  matches: (node) => (node['status'] as { phase?: string } | undefined)?.phase !== 'Running',
  actions: (_node, funcs) => [
    {
      kind: 'patch',
      patchType: 'merge',
      subresource: 'status',
      body: { status: { phase: 'Running', addresses: [{ type: 'InternalIP', address: String(funcs['NodeIP']!()) }], conditions: [{ type: 'Ready', status: 'True' }] } },
    },
  ],
};

/** A pod-ready-like stage: Running with IPs from the template functions. */
export const podReadyStage: FakeStage = {
  name: 'pod-ready',
  kind: 'Pod',
  matches: (pod) => !pod.metadata.deletionTimestamp && (pod['status'] as { phase?: string } | undefined)?.phase !== 'Running',
  actions: (pod, funcs) => {
    const spec = pod['spec'] as { nodeName: string; hostNetwork?: boolean };
    const ips = funcs['PodIPsWith']!(spec.nodeName, spec.hostNetwork ?? false, pod.metadata.uid, pod.metadata.name, pod.metadata.namespace) as string[];
    return [
      {
        kind: 'patch',
        patchType: 'merge',
        subresource: 'status',
        body: { status: { phase: 'Running', podIP: ips[0], podIPs: ips.map((ip) => ({ ip })), hostIP: funcs['NodeIPWith']!(spec.nodeName) } },
      },
    ];
  },
};

export const podDeleteStage: FakeStage = {
  name: 'pod-delete',
  kind: 'Pod',
  matches: (pod) => Boolean(pod.metadata.deletionTimestamp),
  actions: () => [{ kind: 'delete' }],
};

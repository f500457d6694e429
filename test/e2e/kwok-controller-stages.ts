/**
 * Stand-in for the stage engine while src/kwok/engine is being written: kwok's default "fast"
 * stages (node-initialize, node-heartbeat-with-lease, pod-ready, pod-complete, pod-delete) coded
 * directly in TypeScript instead of templates. Lets the e2e tests and the benchmark exercise the
 * controller runtime against a real API server. Stage documents are ignored except for their names.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../../src/kube/client/types.js';
import type { FuncMap, ResourceStages, StageAction, StageCatalog, StageCatalogFactory, StageMatch } from '../../src/kwok/controllers/stage-engine.js';

interface NativeStage {
  name: string;
  kind: 'Node' | 'Pod';
  immediateNextStage?: boolean;
  matches(object: KubeObject): boolean;
  delayMs(object: KubeObject): number;
  actions(object: KubeObject, funcs: FuncMap): StageAction[];
}

type Condition = { type: string; status: string; reason?: string; message?: string; lastHeartbeatTime?: string; lastTransitionTime?: string };

const status = (o: KubeObject): Record<string, unknown> => (o['status'] as Record<string, unknown> | undefined) ?? {};
const spec = (o: KubeObject): Record<string, unknown> => (o['spec'] as Record<string, unknown> | undefined) ?? {};
const conditions = (o: KubeObject): Condition[] => (status(o)['conditions'] as Condition[] | undefined) ?? [];
const condition = (o: KubeObject, type: string): string | undefined => conditions(o).find((c) => c.type === type)?.status;
const now = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

function nodeConditions(o: KubeObject): Condition[] {
  const t = now();
  const transition = o.metadata.creationTimestamp ?? t;
  return [
    ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
    ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
    ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    ['NetworkUnavailable', 'False', 'RouteCreated', 'RouteController created a route'],
  ].map(([type, st, reason, message]) => ({ type: type!, status: st!, reason: reason!, message: message!, lastHeartbeatTime: t, lastTransitionTime: transition }));
}

const stages: NativeStage[] = [
  {
    name: 'node-initialize',
    kind: 'Node',
    matches: (n) => condition(n, 'Ready') !== 'True',
    delayMs: () => 0,
    actions: (n, funcs) => {
      const s = status(n);
      const resources = { cpu: '1k', memory: '1Ti', pods: '1M' };
      return [
        {
          kind: 'patch',
          patchType: 'strategic',
          subresource: 'status',
          body: {
            status: {
              conditions: nodeConditions(n),
              addresses: (s['addresses'] as unknown[] | undefined) ?? [
                { type: 'InternalIP', address: funcs['NodeIP']!() },
                { type: 'Hostname', address: funcs['NodeName']!() || n.metadata.name },
              ],
              daemonEndpoints: { kubeletEndpoint: { Port: funcs['NodePort']!() } },
              allocatable: s['allocatable'] ?? resources,
              capacity: s['capacity'] ?? resources,
              nodeInfo: { architecture: 'amd64', operatingSystem: 'linux', kubeletVersion: 'kwok-test', kubeProxyVersion: 'kwok-test', ...((s['nodeInfo'] as object | undefined) ?? {}) },
              phase: 'Running',
            },
          },
        },
      ];
    },
  },
  {
    name: 'node-heartbeat-with-lease',
    kind: 'Node',
    matches: (n) => status(n)['phase'] === 'Running' && condition(n, 'Ready') === 'True',
    delayMs: () => 600_000 + Math.random() * 10_000,
    actions: (n) => [{ kind: 'patch', patchType: 'strategic', subresource: 'status', body: { status: { conditions: nodeConditions(n) } } }],
  },
  {
    name: 'pod-ready',
    kind: 'Pod',
    matches: (p) => !p.metadata.deletionTimestamp && status(p)['phase'] === 'Pending' && condition(p, 'Ready') !== 'True',
    delayMs: () => 0,
    actions: (p, funcs) => {
      const sp = spec(p);
      const nodeName = String(sp['nodeName'] ?? '');
      const hostNetwork = sp['hostNetwork'] === true;
      const t = now();
      const hostIPs = funcs['NodeIPsWith']!(nodeName) as string[];
      const podIPs = funcs['PodIPsWith']!(nodeName, hostNetwork, p.metadata.uid, p.metadata.name, p.metadata.namespace) as string[];
      const containers = (sp['containers'] as { name: string; image: string }[] | undefined) ?? [];
      return [
        {
          kind: 'patch',
          patchType: 'strategic',
          subresource: 'status',
          body: {
            status: {
              conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastTransitionTime: t })),
              containerStatuses: containers.map((c) => ({ name: c.name, image: c.image, imageID: '', ready: true, restartCount: 0, started: true, state: { running: { startedAt: t } } })),
              hostIP: hostIPs[0],
              hostIPs: hostIPs.map((ip) => ({ ip })),
              podIP: podIPs[0],
              podIPs: podIPs.map((ip) => ({ ip })),
              phase: 'Running',
              startTime: t,
            },
          },
        },
      ];
    },
  },
  {
    name: 'pod-complete',
    kind: 'Pod',
    matches: (p) => !p.metadata.deletionTimestamp && status(p)['phase'] === 'Running' && (p.metadata.ownerReferences ?? []).some((r) => r.kind === 'Job'),
    delayMs: () => 0,
    actions: () => [{ kind: 'patch', patchType: 'strategic', subresource: 'status', body: { status: { phase: 'Succeeded' } } }],
  },
  {
    name: 'pod-delete',
    kind: 'Pod',
    matches: (p) => Boolean(p.metadata.deletionTimestamp),
    delayMs: () => 0,
    actions: () => [{ kind: 'delete' }],
  },
];

/** Merge patch with lists replaced: close enough to strategic merge to detect no-op patches. */
function merge(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else base[key] = merge(base[key], value);
  }
  return base;
}

function resourceStages(list: NativeStage[]): ResourceStages {
  const byName = new Map(list.map((s) => [s.name, s]));
  return {
    stageNames: list.map((s) => s.name),
    match(object): StageMatch | undefined {
      const stage = list.find((s) => s.matches(object));
      return stage ? { stage: { name: stage.name, immediateNextStage: stage.immediateNextStage ?? false }, delayMs: stage.delayMs(object) } : undefined;
    },
    planActions: (match, object, funcs) => byName.get(match.stage.name)!.actions(object, funcs),
    patchChangesObject: (object, action) => action.kind !== 'patch' || action.patchType === 'json' || !isDeepStrictEqual(merge(object, action.body), object),
  };
}

export const nativeCatalogFactory: StageCatalogFactory = (documents) => {
  const wanted = new Set(documents.map((d) => (d as { metadata?: { name?: string } }).metadata?.name).filter((n): n is string => Boolean(n)));
  const chosen = stages.filter((s) => wanted.size === 0 || wanted.has(s.name));
  const catalog: StageCatalog = {
    stageCount: chosen.length,
    problems: [],
    resources: () => [...new Set(chosen.map((s) => s.kind))].map((kind) => ({ apiGroup: 'v1', kind })),
    forResource: (resource) => resourceStages(resource.apiGroup === 'v1' ? chosen.filter((s) => s.kind === resource.kind) : []),
  };
  return catalog;
};

/** Minimal Stage documents naming the native stages, for --config files. */
export const nativeStageDocuments = stages.map((s) => ({
  apiVersion: 'kwok.x-k8s.io/v1alpha1',
  kind: 'Stage',
  metadata: { name: s.name },
  spec: { resourceRef: { apiGroup: 'v1', kind: s.kind }, selector: {} },
}));

/** The stages kwokctl writes by default: node-fast, node-heartbeat-with-lease and pod-fast from templates/stages. */
export function defaultStageYaml(): { yaml: string; source: string } {
  const dir = join(import.meta.dirname, '..', '..', 'templates', 'stages');
  const files = ['node-fast.yaml', 'node-heartbeat-with-lease.yaml', 'pod-fast.yaml'].map((f) => join(dir, f));
  return { yaml: files.map((f) => readFileSync(f, 'utf8')).join('\n---\n'), source: 'templates/stages' };
}

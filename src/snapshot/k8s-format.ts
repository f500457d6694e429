/**
 * The `k8s` snapshot format: a YAML stream of the cluster's objects as the API returns them,
 * minus what only the server may set (resourceVersion, managedFields). UIDs are kept so restore
 * can re-link owner references to the new objects' UIDs.
 */
import type { KubeObject } from '../kube/index.js';

/** kwokctl's default --filter, in restore order: owners (namespaces, workloads) before what they own. */
export const DEFAULT_FILTER = [
  'namespace', 'node', 'serviceaccount', 'configmap', 'secret', 'limitrange', 'runtimeclass.node.k8s.io',
  'priorityclass.scheduling.k8s.io', 'clusterrolebindings.rbac.authorization.k8s.io', 'clusterroles.rbac.authorization.k8s.io',
  'rolebindings.rbac.authorization.k8s.io', 'roles.rbac.authorization.k8s.io', 'daemonset.apps', 'deployment.apps',
  'replicaset.apps', 'statefulset.apps', 'cronjob.batch', 'job.batch', 'persistentvolumeclaim', 'persistentvolume',
  'pod', 'service', 'endpoints',
] as const;

/** What a snapshot keeps of an object. */
export function cleanForSnapshot(object: KubeObject): KubeObject {
  const { resourceVersion: _rv, managedFields: _mf, selfLink: _sl, ...metadata } = object.metadata as KubeObject['metadata'] & { selfLink?: string };
  return { ...object, metadata };
}

/** What a create request may carry: no server-set identity or timestamps. */
export function cleanForCreate(object: KubeObject, uidMap: ReadonlyMap<string, string>): KubeObject {
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, managedFields: _mf, generation: _g, deletionTimestamp: _dt, ...metadata } = object.metadata as KubeObject['metadata'] & { generation?: number };
  const owners = metadata.ownerReferences?.filter((o) => uidMap.has(o.uid)).map((o) => ({ ...o, uid: uidMap.get(o.uid)! }));
  if (owners && owners.length > 0) metadata.ownerReferences = owners;
  else delete metadata.ownerReferences;
  return { ...object, metadata };
}

/**
 * Restore waves: an object goes in the first wave after every owner it has in the snapshot.
 * Owners outside the snapshot are dropped (else the garbage collector would delete the child).
 */
export function restoreWaves(objects: readonly KubeObject[]): KubeObject[][] {
  const inSnapshot = new Set(objects.map((o) => o.metadata.uid).filter((u): u is string => !!u));
  const waveOf = new Map<string, number>();
  const pending = [...objects];
  const waves: KubeObject[][] = [];
  while (pending.length > 0) {
    const wave: KubeObject[] = [];
    for (let i = pending.length - 1; i >= 0; i--) {
      const o = pending[i]!;
      const owners = (o.metadata.ownerReferences ?? []).map((r) => r.uid).filter((u) => inSnapshot.has(u) && u !== o.metadata.uid);
      if (owners.every((u) => waveOf.has(u) && waveOf.get(u)! < waves.length)) {
        wave.unshift(o);
        pending.splice(i, 1);
      }
    }
    if (wave.length === 0) {
      // An ownership cycle: nothing left can wait for anything else; create the rest as they are.
      waves.push(pending.splice(0));
      break;
    }
    for (const o of wave) if (o.metadata.uid) waveOf.set(o.metadata.uid, waves.length);
    waves.push(wave);
  }
  return waves;
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { checkCrdKinds, SERVED_CRD_KINDS } from '../../../src/cluster/crds.js';
import { UsageError } from '../../../src/util/errors.js';
import { streamingResources } from '../../../src/kube/client/resources.js';
import { templatePath } from '../../../src/util/package-root.js';

test('--enable-crds takes Stage, Logs, Exec, Attach, PortForward, their Cluster kinds and the metrics kinds, once each, and refuses the rest naming them', () => {
  assert.deepEqual(checkCrdKinds(['Logs', 'ClusterLogs', 'Logs', 'Stage', 'Exec', 'ClusterPortForward', 'Metric']), ['Logs', 'ClusterLogs', 'Stage', 'Exec', 'ClusterPortForward', 'Metric']);
  assert.throws(
    () => checkCrdKinds(['Stage', 'Bogus']),
    (e: unknown) =>
      e instanceof UsageError &&
      e.message === '--enable-crds Bogus is not supported yet' &&
      e.hint === 'kinds that can be served as custom resources: Stage, Logs, ClusterLogs, Exec, ClusterExec, Attach, ClusterAttach, PortForward, ClusterPortForward, Metric, ResourceUsage, ClusterResourceUsage',
  );
});

test('each served kind has a CRD of group kwok.x-k8s.io with the kind, scope and plural the controller watches', () => {
  const expected: Record<string, readonly [string, string]> = {
    Stage: ['Cluster', 'stages'],
    Logs: ['Namespaced', 'logs'],
    ClusterLogs: ['Cluster', 'clusterlogs'],
    Metric: ['Cluster', 'metrics'],
    ResourceUsage: ['Namespaced', 'resourceusages'],
    ClusterResourceUsage: ['Cluster', 'clusterresourceusages'],
    // The streaming kinds: what the controller's watch uses.
    ...Object.fromEntries(Object.entries(streamingResources).map(([kind, ref]) => [kind, [ref.namespaced ? 'Namespaced' : 'Cluster', ref.resource] as const])),
  };
  for (const kind of SERVED_CRD_KINDS) {
    const crd = parse(readFileSync(templatePath('crds', `${kind.toLowerCase()}.yaml`), 'utf8')) as { metadata: { name: string }; spec: { group: string; scope: string; names: { kind: string; plural: string } } };
    const [scope, plural] = expected[kind] ?? ['', ''];
    assert.equal(crd.spec.names.kind, kind);
    assert.equal(crd.spec.scope, scope);
    assert.equal(crd.spec.names.plural, plural);
    assert.equal(crd.metadata.name, `${plural}.kwok.x-k8s.io`);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { checkCrdKinds, SERVED_CRD_KINDS } from '../../../src/cluster/crds.js';
import { UsageError } from '../../../src/util/errors.js';
import { templatePath } from '../../../src/util/package-root.js';

test('--enable-crds takes Stage, Logs and ClusterLogs, once each, and refuses the rest naming them', () => {
  assert.deepEqual(checkCrdKinds(['Logs', 'ClusterLogs', 'Logs', 'Stage']), ['Logs', 'ClusterLogs', 'Stage']);
  assert.throws(
    () => checkCrdKinds(['Stage', 'Metric']),
    (e: unknown) => e instanceof UsageError && e.message === '--enable-crds Metric is not supported yet' && e.hint === 'kinds that can be served as custom resources: Stage, Logs, ClusterLogs',
  );
});

test('each served kind has a CRD of group kwok.x-k8s.io with the kind, scope and plural the controller watches', () => {
  const expected = { Stage: ['Cluster', 'stages'], Logs: ['Namespaced', 'logs'], ClusterLogs: ['Cluster', 'clusterlogs'] } as const;
  for (const kind of SERVED_CRD_KINDS) {
    const crd = parse(readFileSync(templatePath('crds', `${kind.toLowerCase()}.yaml`), 'utf8')) as { metadata: { name: string }; spec: { group: string; scope: string; names: { kind: string; plural: string } } };
    const [scope, plural] = expected[kind];
    assert.equal(crd.spec.names.kind, kind);
    assert.equal(crd.spec.scope, scope);
    assert.equal(crd.spec.names.plural, plural);
    assert.equal(crd.metadata.name, `${plural}.kwok.x-k8s.io`);
  }
});

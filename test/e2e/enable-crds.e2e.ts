import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kwokts, requireBinaries, sandbox, waitFor, type Sandbox, failure } from './harness.js';

describe('create cluster --enable-crds Stage', () => {
  let box: Sandbox;
  const k = (args: string[], input?: string) => kwokts(box, ['--name', 'crds', 'kubectl', ...args], input === undefined ? {} : { input });
  before(() => {
    requireBinaries();
    box = sandbox();
  });
  after(async () => {
    await kwokts(box, ['--name', 'crds', 'delete', 'cluster']);
    box.cleanup();
  });

  test('an unsupported kind is refused before anything is made', async () => {
    const r = await kwokts(box, ['--name', 'crds', 'create', 'cluster', '--enable-crds', 'Bogus']);
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, /^error: --enable-crds Bogus is not supported yet$/m);
  });

  test('stages are served as custom resources and drive the controller', async () => {
    const r = await kwokts(box, ['--name', 'crds', 'create', 'cluster', '--enable-crds', 'Stage', '--wait', '2m']);
    assert.equal(r.exitCode, 0, failure(r));
    const stages = await k(['get', 'stages', '-o', 'name']);
    assert.deepEqual(stages.stdout.trim().split('\n').sort(), [
      'stage.kwok.x-k8s.io/node-heartbeat-with-lease',
      'stage.kwok.x-k8s.io/node-initialize',
      'stage.kwok.x-k8s.io/pod-complete',
      'stage.kwok.x-k8s.io/pod-delete',
      'stage.kwok.x-k8s.io/pod-ready',
    ]);
    assert.equal((await k(['apply', '-f', '-'], 'apiVersion: v1\nkind: Node\nmetadata:\n  name: crd-node\n')).exitCode, 0);
    await waitFor('node Ready', async () => (await k(['get', 'node', 'crd-node', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).stdout === 'True', 30_000);

    // A Stage added at run time is picked up: label nodes that carry a marker annotation. The
    // heartbeat stage matches a Ready node too; weight 1 (against its 0) makes ours the choice.
    const stage = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata: {name: node-mark}
spec:
  resourceRef: {apiGroup: v1, kind: Node}
  weight: 1
  selector:
    matchAnnotations: {mark: "yes"}
    matchExpressions:
    - key: '.metadata.labels.marked'
      operator: DoesNotExist
  next:
    patches:
    - type: merge
      template: |
        metadata:
          labels:
            marked: "true"
`;
    assert.equal((await k(['apply', '-f', '-'], stage)).exitCode, 0);
    assert.equal((await k(['annotate', 'node', 'crd-node', 'mark=yes'])).exitCode, 0);
    await waitFor('the new stage to label the node', async () => (await k(['get', 'node', 'crd-node', '-o', 'jsonpath={.metadata.labels.marked}'])).stdout === 'true', 30_000);
  });
});

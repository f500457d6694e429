import { test } from 'node:test';
import assert from 'node:assert/strict';
import { componentReadiness, podReady } from '../../../../runtimes/kind/kind-pods.js';
import type { KubeObject } from '../../../../src/kube/index.js';

const pod = (name: string, phase: string, ready: boolean[] | undefined, labels?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'kube-system', ...(labels ? { labels } : {}) },
  status: { phase, ...(ready ? { containerStatuses: ready.map((r) => ({ ready: r })) } : {}) },
});

test('a pod is ready when Running with every container ready, as kwokctl counts it', () => {
  assert.equal(podReady(pod('a', 'Running', [true, true])), true);
  assert.equal(podReady(pod('a', 'Running', [true, false])), false);
  assert.equal(podReady(pod('a', 'Running', undefined)), false, 'no container statuses yet');
  assert.equal(podReady(pod('a', 'Pending', [true])), false);
});

test("static pods are found by <component>-<node>, kwokts's Deployments by app=<component>; a missing pod is not ready", () => {
  const node = 'kwok-k1-control-plane';
  const pods = [
    pod(`kube-scheduler-${node}`, 'Running', [true]),
    pod(`kube-controller-manager-${node}`, 'Running', [false]),
    pod('kwok-controller-7d9f-abcde', 'Running', [true], { app: 'kwok-controller' }),
    // A Deployment's old pod going away beside its ready new one: one ready pod is enough.
    pod('prometheus-1', 'Running', [false], { app: 'prometheus' }),
    pod('prometheus-2', 'Running', [true], { app: 'prometheus' }),
    // Another node's static pod does not count for this node.
    pod('etcd-kwok-other-control-plane', 'Running', [true]),
  ];
  const ready = componentReadiness(pods, ['kube-scheduler', 'kube-controller-manager', 'kwok-controller', 'prometheus', 'metrics-server', 'etcd'], node);
  assert.deepEqual(Object.fromEntries(ready), {
    'kube-scheduler': true,
    'kube-controller-manager': false,
    'kwok-controller': true,
    prometheus: true,
    'metrics-server': false,
    etcd: false,
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { componentReadiness, etcdContainer, isDeployedPod, isMirrorPod, podReady } from '../../../../runtimes/kind/kind-pods.js';
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

test("a YAML restore leaves kind our Deployments' pods (kube-system, app=<component>), and only those", () => {
  const pod = (namespace: string, labels?: Record<string, string>) => ({ kind: 'Pod', metadata: { namespace, ...(labels ? { labels } : {}) } });
  for (const app of ['kwok-controller', 'metrics-server', 'prometheus', 'jaeger']) assert.equal(isDeployedPod(pod('kube-system', { app })), true, app);
  assert.equal(isDeployedPod(pod('default', { app: 'kwok-controller' })), false, "a user's pod of that name elsewhere");
  assert.equal(isDeployedPod(pod('kube-system', { 'k8s-app': 'kube-dns' })), false, "kind's own coredns");
  assert.equal(isDeployedPod(pod('kube-system', { app: 'kube-scheduler' })), false, 'not one we deploy');
  assert.equal(isDeployedPod(pod('kube-system')), false, 'no labels');
  assert.equal(isDeployedPod({ kind: 'Deployment', metadata: { namespace: 'kube-system', labels: { app: 'kwok-controller' } } }), false, 'the Deployment itself is restored as any object');
});

test("a YAML restore leaves the kubelet its static pods' mirrors (annotated kubernetes.io/config.mirror), and only those", () => {
  const mirror = 'kubernetes.io/config.mirror';
  const pod = (annotations?: Record<string, string>, kind = 'Pod') => ({ kind, metadata: { namespace: 'kube-system', ...(annotations ? { annotations } : {}) } });
  assert.equal(isMirrorPod(pod({ [mirror]: '7c5c5a4a1e0d' })), true, "kubeadm's controller-manager as the kubelet mirrors it");
  assert.equal(isMirrorPod(pod({ 'kubernetes.io/config.source': 'file' })), false, 'only the mirror annotation counts');
  assert.equal(isMirrorPod(pod()), false, 'no annotations');
  assert.equal(isMirrorPod(pod({ [mirror]: 'x' }, 'ConfigMap')), false, 'a pod, nothing else');
});

test("etcd's container as the kubelet reports it: when the running one started, and whether one ended before", () => {
  const node = 'kwok-k1-control-plane';
  const etcdPod = (name: string, statuses: unknown[]): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'kube-system' }, status: { containerStatuses: statuses } });
  const running = { name: 'etcd', state: { running: { startedAt: '2026-12-01T00:53:26Z' } } };
  assert.deepEqual(etcdContainer([etcdPod(`etcd-${node}`, [running])], node), { startedAt: '2026-12-01T00:53:26Z', endedBefore: false });
  assert.deepEqual(etcdContainer([etcdPod(`etcd-${node}`, [{ ...running, lastState: { terminated: { exitCode: 0, finishedAt: '2026-12-01T00:53:25Z' } } }])], node), { startedAt: '2026-12-01T00:53:26Z', endedBefore: true });
  assert.deepEqual(etcdContainer([etcdPod(`etcd-${node}`, [{ name: 'etcd', state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: {} } }])], node), { endedBefore: true }, 'not running: no start time');
  assert.equal(etcdContainer([etcdPod('etcd-kwok-other-control-plane', [running])], node), undefined, "another node's etcd");
  assert.equal(etcdContainer([etcdPod(`etcd-${node}`, [])], node), undefined, 'no container status yet');
  assert.equal(etcdContainer(undefined, node), undefined, 'the apiserver did not answer');
});

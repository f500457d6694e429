import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_KWOK_CONTROLLER_IMAGE, resolveImages, resolveKindNodeImage } from '../../../src/artifacts/images.js';
import { defaultOptionValues } from '../../../src/config/options.js';

test("kwokctl's default images for the default versions, and ours for the controller", () => {
  assert.deepEqual(resolveImages(defaultOptionValues(), 'v1.36.1', 'v3.6.10'), {
    etcd: 'registry.k8s.io/etcd:3.6.10-0',
    'kube-apiserver': 'registry.k8s.io/kube-apiserver:v1.36.1',
    'kube-controller-manager': 'registry.k8s.io/kube-controller-manager:v1.36.1',
    'kube-scheduler': 'registry.k8s.io/kube-scheduler:v1.36.1',
    'kwok-controller': 'ghcr.io/kwokts/kwok:v0.1.0',
    prometheus: 'docker.io/prom/prometheus:v3.12.0',
    'metrics-server': 'registry.k8s.io/metrics-server/metrics-server:v0.9.0',
    'scheduler-plugins': 'registry.k8s.io/scheduler-plugins/controller:v0.34.7',
    jaeger: 'docker.io/jaegertracing/all-in-one:1.76.0',
  });
  assert.equal(DEFAULT_KWOK_CONTROLLER_IMAGE, 'ghcr.io/kwokts/kwok:v0.1.0');
  assert.equal(resolveKindNodeImage(defaultOptionValues(), 'v1.36.1'), 'docker.io/kindest/node:v1.36.1');
});

test('an explicit image wins over a prefix, a prefix over the upstream registry; versions follow', () => {
  const values = { ...defaultOptionValues(), kubeImagePrefix: 'mirror.local/k8s', etcdImagePrefix: 'mirror.local/etcd', kwokImagePrefix: 'mirror.local/kwok', kubeSchedulerImage: 'me/sched:1', etcdVersion: 'v3.5.21' };
  const images = resolveImages(values, 'v1.30.0', 'v3.5.21');
  assert.equal(images['kube-apiserver'], 'mirror.local/k8s/kube-apiserver:v1.30.0');
  assert.equal(images['kube-scheduler'], 'me/sched:1');
  assert.equal(images.etcd, 'mirror.local/etcd/etcd:3.5.21');
  assert.equal(images['kwok-controller'], 'mirror.local/kwok/kwok:v0.1.0');
  assert.equal(resolveImages(defaultOptionValues(), 'v1.30.0', 'v3.5.21').etcd, 'registry.k8s.io/etcd:3.5.21-0');
});

test('with scheduler-plugins, kube-scheduler runs its scheduler image whatever --kube-scheduler-image says; prefix and version apply to both', () => {
  const base = { ...defaultOptionValues(), kubeSchedulerImage: 'me/sched:1' };
  const images = resolveImages(base, 'v1.36.1', 'v3.6.10', ['etcd', 'kube-apiserver', 'kube-scheduler', 'scheduler-plugins']);
  assert.equal(images['kube-scheduler'], 'registry.k8s.io/scheduler-plugins/kube-scheduler:v0.34.7');
  assert.equal(images['scheduler-plugins'], 'registry.k8s.io/scheduler-plugins/controller:v0.34.7');
  const mirrored = resolveImages({ ...base, schedulerPluginsImagePrefix: 'mirror.local/sp', schedulerPluginsVersion: '0.33.1' }, 'v1.36.1', 'v3.6.10', ['scheduler-plugins']);
  assert.equal(mirrored['kube-scheduler'], 'mirror.local/sp/kube-scheduler:v0.33.1');
  assert.equal(mirrored['scheduler-plugins'], 'mirror.local/sp/controller:v0.33.1');
  const explicit = resolveImages({ ...base, schedulerPluginsSchedulerImage: 'me/sp-sched:2', schedulerPluginsControllerImage: 'me/sp-ctl:2' }, 'v1.36.1', 'v3.6.10', ['scheduler-plugins']);
  assert.equal(explicit['kube-scheduler'], 'me/sp-sched:2');
  assert.equal(explicit['scheduler-plugins'], 'me/sp-ctl:2');
});

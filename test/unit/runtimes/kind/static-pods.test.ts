import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { etcdHealthWait, markedManifest, RESTART_ANNOTATION } from '../../../../runtimes/kind/static-pods.js';
import { OperationError } from '../../../../src/util/errors.js';

/** kubeadm's etcd manifest as a kind node has it (abridged). */
const ETCD = `apiVersion: v1
kind: Pod
metadata:
  annotations:
    kubeadm.kubernetes.io/etcd.advertise-client-urls: https://172.18.0.2:2379
  creationTimestamp: null
  labels:
    component: etcd
    tier: control-plane
  name: etcd
  namespace: kube-system
spec:
  containers:
  - command:
    - etcd
    - --data-dir=/var/lib/etcd
    image: registry.k8s.io/etcd:3.6.4-0
    name: etcd
  hostNetwork: true
status: {}
`;

/** kubeadm's scheduler manifest: no annotations at all. */
const SCHEDULER = `apiVersion: v1
kind: Pod
metadata:
  labels:
    component: kube-scheduler
  name: kube-scheduler
  namespace: kube-system
spec:
  containers:
  - command: [kube-scheduler, --leader-elect=true]
    name: kube-scheduler
`;

test('a static pod comes back as a new pod: the restart annotation set, everything else as it was', () => {
  const marked = parse(markedManifest(ETCD, '1764547200000')) as { metadata: { annotations: Record<string, string> } };
  const original = parse(ETCD) as { metadata: { annotations: Record<string, string> } };
  assert.deepEqual(marked, { ...original, metadata: { ...original.metadata, annotations: { ...original.metadata.annotations, [RESTART_ANNOTATION]: '1764547200000' } } });
  // A string, as every annotation must be (a bare number would not decode into a pod).
  assert.match(markedManifest(ETCD, '1764547200000'), new RegExp(`${RESTART_ANNOTATION}: "1764547200000"`));
});

test('each start replaces the mark, so the content (and the kubelet UID of it) differs from the last start', () => {
  const first = markedManifest(ETCD, '1');
  const second = markedManifest(first, '2');
  assert.notEqual(first, second);
  assert.equal((parse(second) as { metadata: { annotations: Record<string, string> } }).metadata.annotations[RESTART_ANNOTATION], '2');
  assert.equal(second.split(RESTART_ANNOTATION).length, 2, 'one annotation, not one per start');
});

test('a manifest without annotations gets them', () => {
  const marked = parse(markedManifest(SCHEDULER, '7')) as { metadata: Record<string, unknown>; spec: unknown };
  assert.deepEqual(marked.metadata.annotations, { [RESTART_ANNOTATION]: '7' });
  assert.deepEqual(marked.spec, (parse(SCHEDULER) as { spec: unknown }).spec);
});

test('what is not a pod manifest is refused with a way out, never moved in half-edited', () => {
  for (const text of ['', 'kind: Pod\nspec: {}\n', 'metadata: [unclosed\n']) {
    assert.throws(() => markedManifest(text, '1'), (error: unknown) => error instanceof OperationError && /does not read as a pod/.test(error.message) && error.hint !== undefined);
  }
});

test('the etcd wait says what the kubelet and the container runtime saw when it gives up', () => {
  const wait = etcdHealthWait();
  assert.match(wait, /curl -fs http:\/\/127\.0\.0\.1:2381\/health/);
  assert.match(wait, /crictl ps -a --name etcd/);
  assert.match(wait, /pgrep -a etcd/);
  assert.match(wait, /journalctl -u kubelet/);
  assert.match(wait, />&2; exit 1;/);
});

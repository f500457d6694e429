/**
 * Seed 002: the controller run out of cluster with the seed's exact flags and a custom pod
 * lifecycle written in the older `next` Stage form; a Job's pod goes Pending →
 * ContainerCreating → Running → Completed with the configured delays, and the Job completes.
 * The cluster is a kwokts cluster without its own controller, standing in for "your cluster".
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { BIN, kwokts, requireBinaries, sandbox, spawnKwokts, waitFor, type Sandbox, failure } from './harness.js';
import { onFakeNode, seedNode } from '../fixtures/seed-objects.js';

const DELAYS = { create: 1000, ready: 3000, complete: 3000 };

const STAGES = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-create
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'DoesNotExist'
    - key: '.status.podIP'
      operator: 'DoesNotExist'
  delay:
    durationMilliseconds: ${DELAYS.create}
  next:
    statusTemplate: |
      {{ $now := Now }}
      conditions:
      - lastTransitionTime: {{ $now }}
        status: "True"
        type: Initialized
      - lastTransitionTime: {{ $now }}
        message: 'containers with unready status: [{{ range .spec.containers }} {{ .name }}{{ end }}]'
        reason: ContainersNotReady
        status: "False"
        type: Ready
      containerStatuses:
      {{ range .spec.containers }}
      - image: {{ .image }}
        name: {{ .name }}
        ready: false
        restartCount: 0
        started: false
        state:
          waiting:
            reason: ContainerCreating
      {{ end }}
      hostIP: {{ NodeIPWith .spec.nodeName }}
      podIP: {{ PodIPWith .spec.nodeName ( or .spec.hostNetwork false ) ( or .metadata.uid "" ) ( or .metadata.name "" ) ( or .metadata.namespace "" ) }}
      phase: Pending
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-ready
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'DoesNotExist'
    - key: '.status.phase'
      operator: 'In'
      values: ['Pending']
    - key: '.status.containerStatuses.[].state.waiting.reason'
      operator: 'In'
      values: ['ContainerCreating']
  delay:
    durationMilliseconds: ${DELAYS.ready}
  next:
    statusTemplate: |
      {{ $now := Now }}
      conditions:
      - lastTransitionTime: {{ $now }}
        status: "True"
        type: Initialized
      - lastTransitionTime: {{ $now }}
        status: "True"
        type: Ready
      - lastTransitionTime: {{ $now }}
        status: "True"
        type: ContainersReady
      containerStatuses:
      {{ range .spec.containers }}
      - image: {{ .image }}
        name: {{ .name }}
        ready: true
        restartCount: 0
        started: true
        state:
          running:
            startedAt: {{ $now }}
      {{ end }}
      phase: Running
      startTime: {{ $now }}
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-complete
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'DoesNotExist'
    - key: '.status.phase'
      operator: 'In'
      values: ['Running']
    - key: '.metadata.ownerReferences.[].kind'
      operator: 'In'
      values: ['Job']
  delay:
    durationMilliseconds: ${DELAYS.complete}
  next:
    statusTemplate: |
      {{ $now := Now }}
      {{ $root := . }}
      containerStatuses:
      {{ range $index, $item := .spec.containers }}
      {{ $origin := index $root.status.containerStatuses $index }}
      - image: {{ $item.image }}
        name: {{ $item.name }}
        ready: false
        restartCount: 0
        started: false
        state:
          terminated:
            exitCode: 0
            finishedAt: {{ $now }}
            reason: Completed
            startedAt: {{ $origin.state.running.startedAt }}
      {{ end }}
      phase: Succeeded
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-delete
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'Exists'
  next:
    delete: true
`;

const NODE = seedNode('kwok-node-1');

const JOB = `apiVersion: batch/v1
kind: Job
metadata:
  namespace: default
  name: nomcadkwok-cpu-job-short-0
spec:
  parallelism: 1
  completions: 1
  template:
    metadata:
      namespace: default
    spec:
${onFakeNode(6)}
      containers:
      - args: [sleep, 10s]
        name: nomcadkwok-cpu-job-short-0
        image: nginx:1.24.0
        resources:
          limits: {cpu: 5m, memory: 50M}
          requests: {cpu: 5m, memory: 50M}
      restartPolicy: Never
`;

describe('seed 002: custom pod lifecycle with the controller out of cluster', () => {
  let box: Sandbox;
  let controller: ResultPromise | undefined;
  const k = (args: string[], input?: string) => kwokts(box, ['--name', 'seed2', 'kubectl', ...args], input === undefined ? {} : { input });
  before(async () => {
    requireBinaries();
    box = sandbox();
    const created = await kwokts(box, ['--name', 'seed2', 'create', 'cluster', '--disable', 'kwok-controller', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
  });
  after(async () => {
    controller?.kill('SIGTERM');
    await controller;
    await kwokts(box, ['--name', 'seed2', 'delete', 'cluster']);
    box.cleanup();
  });

  test('Pending → ContainerCreating → Running → Completed with the configured delays; the Job completes', async () => {
    const stagesFile = join(box.workdir, '..', 'kwok.yaml');
    writeFileSync(stagesFile, STAGES);
    const kubeconfig = join(box.workdir, 'clusters', 'seed2', 'kubeconfig.yaml');
    // The seed's invocation, with only the binary name changed.
    controller = execa('node', [BIN, 'kwok',
      `--kubeconfig=${kubeconfig}`,
      '--manage-all-nodes=false',
      '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
      '--manage-nodes-with-label-selector=',
      '--disregard-status-with-annotation-selector=kwok.x-k8s.io/status=custom',
      '--disregard-status-with-label-selector=',
      '--cidr=10.0.0.1/24',
      '--node-ip=10.0.0.1',
      `--config=${stagesFile}`,
    ], { env: { ...process.env, ...box.env }, reject: false, all: true });

    assert.equal((await k(['apply', '-f', '-'], NODE)).exitCode, 0);

    // Record when each status first appears, as `kubectl get pods --watch` shows it: one watch,
    // timed as each event arrives, so no kubectl start-up sits inside the measured intervals.
    const seen = new Map<string, number>();
    const watch = spawnKwokts(box, ['--name', 'seed2', 'kubectl', 'get', 'pod', '-l', 'job-name=nomcadkwok-cpu-job-short-0', '--watch', '-o',
      'jsonpath={.status.phase} {.status.containerStatuses[0].state.waiting.reason}{.status.containerStatuses[0].state.terminated.reason}{"\\n"}']);
    let pending = '';
    watch.stdout?.on('data', (chunk: Buffer) => {
      const now = Date.now();
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const [phase, reason] = line.trim().split(' ');
        const status = reason || phase;
        if (status && !seen.has(status)) seen.set(status, now);
      }
    });
    try {
      assert.equal((await k(['apply', '-f', '-'], JOB)).exitCode, 0);
      await waitFor('the pod to complete', () => seen.has('Completed'), 60_000, 100);
    } finally {
      watch.kill('SIGINT');
      await watch.catch(() => undefined);
    }

    assert.deepEqual([...seen.keys()].filter((s) => s !== 'Pending'), ['ContainerCreating', 'Running', 'Completed'], `statuses seen: ${[...seen.keys()]}`);
    const creating = seen.get('ContainerCreating')!;
    const running = seen.get('Running')!;
    const completed = seen.get('Completed')!;
    // ±1 s, as the issue asks: the watch adds only the apiserver's fan-out.
    assert.ok(Math.abs(running - creating - DELAYS.ready) <= 1000, `ContainerCreating → Running took ${running - creating} ms`);
    assert.ok(Math.abs(completed - running - DELAYS.complete) <= 1000, `Running → Completed took ${completed - running} ms`);

    await waitFor('the Job to succeed', async () => (await k(['get', 'job', 'nomcadkwok-cpu-job-short-0', '-o', 'jsonpath={.status.succeeded}'])).stdout === '1', 30_000);
    const ip = await k(['get', 'pod', '-l', 'job-name=nomcadkwok-cpu-job-short-0', '-o', 'jsonpath={.items[0].status.podIP} {.items[0].status.hostIP}']);
    assert.match(ip.stdout, /^10\.0\.0\.\d+ 10\.0\.0\.1$/);
  });
});

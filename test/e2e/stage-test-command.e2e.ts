import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { kwokts, ROOT, sandbox, type Sandbox, failure } from './harness.js';

const POD = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: j, uid: u}]}
spec:
  nodeName: node-0
  containers: [{name: c, image: busybox}]
status: {phase: Pending}
`;

describe('kwokts stage test (no cluster)', () => {
  let box: Sandbox;
  let pod: string;
  before(() => {
    box = sandbox();
    pod = join(box.workdir, '..', 'pod.yaml');
    writeFileSync(pod, POD);
  });
  after(() => box.cleanup());

  test('shows the matching stage, its patch, and the next one after applying it', async () => {
    const r = await kwokts(box, ['stage', 'test', '-c', join(ROOT, 'templates/stages/pod-fast.yaml'), '-f', pod, '--now', '2026-01-01T00:00:00Z', '--steps', '2']);
    assert.equal(r.exitCode, 0, failure(r));
    const report = parse(r.stdout) as { stages: Array<{ stage: string; next: Array<{ type: string; subresource: string; data: { status: { phase: string; podIP: string } } }> }>; steps: Array<{ stage: string }> };
    assert.deepEqual(report.stages.map((s) => s.stage), ['pod-ready']);
    const patch = report.stages[0]!.next[0]!;
    assert.equal(patch.type, 'application/strategic-merge-patch+json');
    assert.equal(patch.subresource, 'status');
    assert.equal(patch.data.status.phase, 'Running');
    assert.match(patch.data.status.podIP, /^10\.0\.0\.\d+$/);
    // After pod-ready the Job's pod completes.
    assert.deepEqual(report.steps.map((s) => s.stage), ['pod-ready', 'pod-complete']);
  });

  test('an invalid stage is one clear error naming file and stage', async () => {
    const bad = join(box.workdir, '..', 'bad.yaml');
    writeFileSync(bad, 'apiVersion: kwok.x-k8s.io/v1alpha1\nkind: Stage\nmetadata: {name: broken}\nspec:\n  resourceRef: {kind: Pod}\n  selector: {}\n  wieght: 3\n');
    const r = await kwokts(box, ['stage', 'test', '-c', bad, '-f', pod]);
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /^error: .*bad\.yaml.*broken.*wieght/m);
  });
});

/**
 * Evaluation speed of the stage engine on a realistic Pod (not a test; run by hand):
 *   node --import tsx test/unit/kwok/engine/engine-bench.ts
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadKwokDocuments } from '../../../../src/kwok/api/index.js';
import { compileCel } from '../../../../src/kwok/cel/cel.js';
import { StageSet, compileJq, planActions } from '../../../../src/kwok/engine/index.js';
import { realisticPod } from '../fixtures/realistic-pod.js';

function rate(label: string, fn: () => void, ms = 400): void {
  for (let i = 0; i < 200; i++) fn();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
  }
  const perSec = (n / (performance.now() - start)) * 1000;
  console.log(`${label.padEnd(64)} ${Math.round(perSec).toLocaleString('en-US').padStart(12)} /s`);
}

const pod = realisticPod();
const rt = { now: () => new Date('2024-05-01T10:00:10Z'), random: Math.random };

for (const e of ['.status.conditions.[] | select( .type == "Ready" ) | .status', '.spec.containers.[].name', '.metadata.annotations["x"]', '.metadata.deletionTimestamp', '.metadata.ownerReferences.[].kind']) {
  const q = compileJq(e);
  rate(`jq  ${e}`, () => q.run(pod));
}
rate('jq  compile (cache miss) .status.conditions.[] | select(...)', () => compileJq(`.status.conditions.[] | select( .type == "Ready${Math.random()}" ) | .status`));
for (const e of ['self.status.phase == "Running" && size(self.spec.containers) > 1', '!has(self.metadata.deletionTimestamp)', "self.status.phase in ['Bound','Released']", 'SinceSecond(self) > 5.0']) {
  const p = compileCel(e);
  rate(`cel ${e}`, () => p.evaluate(pod, rt));
}
rate('cel same expression on a fresh object each time (conversion cost)', () => compileCel('!has(self.metadata.deletionTimestamp)').evaluate(realisticPod(), rt));

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const load = (f: string) => loadKwokDocuments(readFileSync(`${root}/templates/stages/${f}`, 'utf8'), f).stages;
const general = new StageSet(load('pod-general.yaml'), { now: rt.now, random: Math.random }).forResource('v1', 'Pod');
const fast = new StageSet(load('pod-fast.yaml'), { now: rt.now, random: Math.random }).forResource('v1', 'Pod');
// A pod as created: no deletionTimestamp key at all (DoesNotExist), status.phase Pending.
const { deletionTimestamp: _deleted, ...createdMeta } = pod.metadata as Record<string, unknown>;
const pending = { ...pod, metadata: createdMeta, status: { phase: 'Pending' } };
rate('match: pod-general (6 stages) on a Running pod', () => general.match(pod));
rate('match: pod-fast (3 stages) on a new pod', () => fast.match(pending));
const m = fast.match(pending)!;
// What the pod controller supplies (pod-controller.ts): the node's and the pod's IPs of every family.
const funcs = { NodeIP: () => '10.0.0.1', NodeIPsWith: () => ['10.0.0.1'], PodIPsWith: () => ['10.0.1.2'] };
rate('planActions: pod-fast pod-ready (real Go template, render + YAML)', () => planActions(m, pending, funcs));

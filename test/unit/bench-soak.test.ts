/**
 * The soak bench's arithmetic and its stage rewrite (test/bench/soak.ts): no cluster, nothing timed.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../src/kube/client/types.js';
import { observeNode, slopePerHour, withHeartbeatDelay } from '../bench/soak.js';

const ROOT = join(import.meta.dirname, '../..');

test('slopePerHour: a line through the points after warm-up, as % per hour of their mean', () => {
  // 100 MiB rising 1 MiB a minute from t = 300 s; before that, a warm-up that must be left out.
  const points: Array<[number, number]> = [[0, 10], [60, 50], [120, 80], [180, 90], [240, 95]];
  for (let t = 300; t <= 1800; t += 60) points.push([t, 100 + (t - 300) / 60]);
  const fit = slopePerHour(points, 300);
  assert.equal(fit.n, 26);
  assert.ok(Math.abs(fit.perHour - 60) < 1e-9, String(fit.perHour));
  assert.ok(Math.abs(fit.mean - 112.5) < 1e-9, String(fit.mean));
  assert.ok(Math.abs(fit.percentPerHour - (100 * 60) / 112.5) < 1e-9);
  // Flat: no slope. Too few points (or a NaN from a process gone): NaN, not a guess.
  assert.equal(slopePerHour([[0, 5], [60, 5], [120, 5]], 0).perHour, 0);
  assert.ok(Number.isNaN(slopePerHour([[0, 5], [60, NaN], [120, 5]], 0).perHour));
});

test('withHeartbeatDelay: the heartbeat stage alone gets the delay, its jitter scaled alike', () => {
  const files = ['node-fast.yaml', 'node-heartbeat-with-lease.yaml', 'pod-fast.yaml'];
  const yaml = files.map((f) => readFileSync(join(ROOT, 'templates', 'stages', f), 'utf8')).join('\n---\n');
  const before = parseAllDocuments(yaml).map((d) => d.toJS() as { metadata: { name: string }; spec: { delay?: unknown } });
  const after = parseAllDocuments(withHeartbeatDelay(yaml, 30_000)).map((d) => d.toJS() as { metadata: { name: string }; spec: { delay?: unknown } });
  assert.equal(after.length, before.length);
  for (const [i, doc] of after.entries()) {
    if (doc.metadata.name === 'node-heartbeat-with-lease') assert.deepEqual(doc.spec.delay, { durationMilliseconds: 30_000, jitterDurationMilliseconds: 30_500 });
    else assert.deepEqual(doc, before[i]);
  }
  assert.throws(() => withHeartbeatDelay(readFileSync(join(ROOT, 'templates', 'stages', 'pod-fast.yaml'), 'utf8'), 30_000), /no node-heartbeat-with-lease stage/);
});

test('observeNode: a heartbeat counts once Ready lastHeartbeatTime moves past the first one seen', () => {
  const node = (status: string, beat: string, addresses = [{ type: 'InternalIP', address: '192.0.2.1' }, { type: 'InternalIP', address: '2001:db8::1' }]): KubeObject =>
    ({ metadata: { name: 'node-000000' }, status: { addresses, conditions: [{ type: 'Ready', status, lastHeartbeatTime: beat }] } }) as unknown as KubeObject;
  let state = observeNode(undefined, node('True', '2026-01-01T00:00:05Z'), 300_000);
  assert.equal(state.ready, true);
  assert.equal(state.dualStack, true);
  assert.equal(state.secondBeat, undefined);
  // The same heartbeat again (kcm's taint removal), or node-initialize played a second time a
  // second later: not a heartbeat.
  state = observeNode(state, node('True', '2026-01-01T00:00:05Z'), 300_000);
  state = observeNode(state, node('True', '2026-01-01T00:00:06Z'), 300_000);
  assert.equal(state.secondBeat, undefined);
  state = observeNode(state, node('True', '2026-01-01T00:10:07Z'), 300_000);
  assert.equal((state.secondBeat! - state.firstBeat!) / 1000, 602);
  state = observeNode(state, node('True', '2026-01-01T00:20:09Z'), 300_000);
  assert.equal((state.secondBeat! - state.firstBeat!) / 1000, 602, 'the first heartbeat stays the first');
  assert.equal(observeNode(undefined, node('Unknown', '2026-01-01T00:00:05Z', [{ type: 'InternalIP', address: '192.0.2.1' }]), 300_000).dualStack, false);
  // A controller that drops the addresses: no longer dual-stack, though it was when created.
  state = observeNode(state, node('True', '2026-01-01T00:30:11Z', [{ type: 'Hostname', address: 'localhost' }]), 300_000);
  assert.deepEqual([state.dualStack, state.createdDualStack], [false, true]);
  assert.equal(observeNode(undefined, node('Unknown', '2026-01-01T00:00:05Z'), 300_000).firstBeat, undefined, 'no baseline from a node not Ready');
});

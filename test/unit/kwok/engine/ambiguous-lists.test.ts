/**
 * Strategic patches of keyed lists whose items share a key: a dual-stack node's two InternalIP
 * addresses. The heartbeat stages (ours and kwok's) send a node's addresses back on every beat;
 * merged by `type`, both land on the first InternalIP, which the apiserver refuses as a duplicate.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseStages } from '../../../../src/kwok/api/index.js';
import { replaceAmbiguousKeyedLists } from '../../../../src/kwok/engine/ambiguous-lists.js';
import { StageSet, planActions, strategicMergePatchShared } from '../../../../src/kwok/engine/index.js';
import { parse as parseYaml } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const NOW = new Date('2026-01-02T15:04:05Z');

const dualStack = [
  { type: 'InternalIP', address: '192.0.2.1' },
  { type: 'InternalIP', address: '2001:db8::1' },
  { type: 'Hostname', address: 'node-0' },
];

function readyNode(addresses: unknown[]): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-0', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' },
    status: {
      phase: 'Running',
      addresses,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ok', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    },
  };
}

/** The status the first step of `stageFile` leaves on `node`, as a strategic merge makes it. */
function play(stageFile: string, node: Record<string, unknown>): { body: unknown; status: { addresses: unknown[]; conditions: { lastHeartbeatTime: string }[] } } {
  const { stages, errors } = parseStages([parseYaml(readFileSync(join(ROOT, 'templates', 'stages', stageFile), 'utf8'))], stageFile);
  assert.deepEqual(errors, []);
  const set = new StageSet(stages, { now: () => NOW, random: () => 0 });
  const match = set.forResource('v1', 'Node').match(node);
  assert.ok(match, `${stageFile} matches a Ready node`);
  const [action] = planActions(match, node, { NodeIP: () => '192.0.2.1', NodeName: () => 'node-0', NodePort: () => 10250 });
  assert.ok(action?.kind === 'patch' && action.patchType === 'strategic');
  const patched = strategicMergePatchShared(node, action.body) as { status: { addresses: unknown[]; conditions: { lastHeartbeatTime: string }[] } };
  return { body: action.body, status: patched.status };
}

describe('node stages on a dual-stack node', () => {
  test('node-initialize keeps both InternalIPs', () => {
    const fresh = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-0', creationTimestamp: '2026-01-01T00:00:00Z' }, status: { addresses: dualStack.slice(0, 2) } };
    const { status } = play('node-fast.yaml', fresh);
    // The apiserver puts the patch's items first (so does kwok v0.8.0 against it).
    assert.deepEqual(status.addresses, [{ type: 'Hostname', address: 'node-0' }, ...dualStack.slice(0, 2)]);
  });


  test('the heartbeat keeps both InternalIPs and refreshes lastHeartbeatTime', () => {
    const { body, status } = play('node-heartbeat-with-lease.yaml', readyNode(dualStack));
    assert.deepEqual(status.addresses, dualStack);
    assert.equal(Date.parse(status.conditions[0]!.lastHeartbeatTime), NOW.getTime());
    // Unchanged addresses are not sent at all, so the write is a plain keyed merge of conditions.
    assert.equal('addresses' in (body as { status: Record<string, unknown> }).status, false);
  });

  test('a single-stack node keeps its addresses in the patch, merged by type as before', () => {
    const single = [dualStack[0], dualStack[2]];
    const { body, status } = play('node-heartbeat-with-lease.yaml', readyNode(single));
    assert.deepEqual(status.addresses, single);
    assert.deepEqual((body as { status: { addresses: unknown } }).status.addresses, single);
  });
});

describe('replaceAmbiguousKeyedLists', () => {
  const node = readyNode(dualStack);

  test('changed items of a repeated key replace the object\'s items of that key; other keys stay', () => {
    const next = [{ type: 'InternalIP', address: '192.0.2.9' }, { type: 'InternalIP', address: '2001:db8::9' }];
    const patch = { status: { addresses: next } };
    const out = replaceAmbiguousKeyedLists(patch, node) as { status: { addresses: unknown[] } };
    assert.deepEqual(out.status.addresses, [{ $patch: 'replace' }, ...next, dualStack[2]]);
    assert.deepEqual((strategicMergePatchShared(node, out) as { status: { addresses: unknown } }).status.addresses, [...next, dualStack[2]]);
    assert.deepEqual(patch.status.addresses, next, 'the input patch is not changed');
  });

  test('an item of a key the object has once merges as before, beside a repeated key (node-initialize adding a Hostname)', () => {
    const hostname = { type: 'Hostname', address: 'localhost' };
    const patch = { status: { addresses: [hostname] } };
    const twoIps = readyNode(dualStack.slice(0, 2));
    assert.equal(replaceAmbiguousKeyedLists(patch, twoIps), patch);
    assert.deepEqual((strategicMergePatchShared(twoIps, patch) as { status: { addresses: unknown } }).status.addresses, [hostname, ...dualStack.slice(0, 2)]);
  });

  test('a list that repeats a key the object does not repeat is a replacement too', () => {
    const single = readyNode([dualStack[0]]);
    const out = replaceAmbiguousKeyedLists({ status: { addresses: dualStack.slice(0, 2) } }, single) as { status: { addresses: unknown[] } };
    assert.deepEqual(out.status.addresses[0], { $patch: 'replace' });
  });

  test('lists with distinct keys, lists with directives and other paths are left alone', () => {
    const distinct = { status: { addresses: [dualStack[0]], conditions: [{ type: 'Ready' }] } };
    assert.equal(replaceAmbiguousKeyedLists(distinct, readyNode([dualStack[0]])), distinct);
    const directive = { status: { addresses: [{ $patch: 'replace' }, ...dualStack] } };
    assert.equal(replaceAmbiguousKeyedLists(directive, node), directive);
    const other = { spec: { taints: [{ key: 'a' }, { key: 'a' }] } };
    assert.equal(replaceAmbiguousKeyedLists(other, node), other);
  });
});

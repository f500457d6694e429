import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterStatus, renderTable, runtimeVerdict } from '../../../src/cluster/summary.js';

test('cluster status from component states', () => {
  assert.equal(clusterStatus([{ state: 'running', ready: true }, { state: 'running', ready: true }]), 'Ready');
  assert.equal(clusterStatus([{ state: 'stopped', ready: false }, { state: 'exited', ready: false }]), 'Stopped');
  assert.equal(clusterStatus([{ state: 'running', ready: true }, { state: 'exited', ready: false }]), 'NotReady');
  // Running but not answering yet is not Ready.
  assert.equal(clusterStatus([{ state: 'running', ready: false }]), 'NotReady');
  assert.equal(clusterStatus([]), 'Stopped');
});

test('tables pad every column but the last', () => {
  assert.equal(renderTable([['NAME', 'READY'], ['kwok', '5/5'], ['a-longer-name', '0/5']]), 'NAME            READY\nkwok            5/5\na-longer-name   0/5');
});

test("kwokctl's -o wide words: cluster rows and component status", async () => {
  const { kwokctlClusterRow, kwokctlComponentStatus } = await import('../../../src/cluster/summary.js');
  assert.deepEqual(kwokctlClusterRow({ name: 'kwok', ready: 5, total: 5, status: 'Ready' }), ['kwok', '5/5', 'Ready']);
  assert.deepEqual(kwokctlClusterRow({ name: 'kwok', ready: 0, total: 5, status: 'Stopped' }), ['kwok', '0/5', 'Stopped']);
  assert.deepEqual(kwokctlClusterRow({ name: 'odd', ready: 0, total: 0, status: 'Stopped' }), ['odd', '0/0', 'Unknown']);
  assert.equal(kwokctlComponentStatus({ state: 'running', ready: true }), 'Ready');
  assert.equal(kwokctlComponentStatus({ state: 'running', ready: false }), 'NotReady');
  assert.equal(kwokctlComponentStatus({ state: 'exited', ready: false }), 'Stopped');
  assert.equal(kwokctlComponentStatus({ state: 'stopped', ready: false }), 'Stopped');
});

test("tables are kwokctl's: three spaces after the widest cell, the last column unpadded", () => {
  assert.equal(renderTable([['NAME', 'READY', 'STATUS'], ['kwok', '5/5', 'Ready']]), 'NAME   READY   STATUS\nkwok   5/5     Ready');
});

test("the runtime's word decides only for a component without a probe; a probed one is asked (kind's pod status lags its probe)", () => {
  const probe = { scheme: 'https' as const, port: 6443, path: '/readyz', clientCert: true };
  assert.deepEqual(runtimeVerdict({}, { name: 'kube-scheduler', state: 'running', ready: false }), { ok: false, detail: 'not ready' });
  assert.equal(runtimeVerdict({}, { name: 'kube-scheduler', state: 'running', ready: true }), undefined, 'ready: the (absent) probe is asked and says ready');
  assert.equal(runtimeVerdict({}, { name: 'kube-scheduler', state: 'running' }), undefined, 'a runtime that cannot tell');
  assert.equal(runtimeVerdict({ probe }, { name: 'kube-apiserver', state: 'running', ready: false }), undefined, 'a probed component is asked');
  assert.deepEqual(runtimeVerdict({ probe }, { name: 'kube-apiserver', state: 'exited' }), { ok: false, detail: 'exited' });
  assert.deepEqual(runtimeVerdict({}, undefined), { ok: false, detail: 'stopped' });
});

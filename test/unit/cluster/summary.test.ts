import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterStatus, renderTable } from '../../../src/cluster/summary.js';

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

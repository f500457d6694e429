import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseComponents } from '../../../src/cluster/create.js';

test('the default set, then --enable adds and --disable removes, in start order', () => {
  assert.deepEqual(chooseComponents([], []), ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller']);
  assert.deepEqual(chooseComponents(['prometheus'], ['kube-scheduler']), ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kwok-controller', 'prometheus']);
});

test('--components replaces the base set; enable/disable still apply', () => {
  assert.deepEqual(chooseComponents([], [], ['kube-apiserver', 'etcd']), ['etcd', 'kube-apiserver']);
  assert.deepEqual(chooseComponents(['kwok-controller'], [], ['etcd', 'kube-apiserver', 'kube-scheduler']), ['etcd', 'kube-apiserver', 'kube-scheduler', 'kwok-controller']);
});

test('unknown names, and a set without etcd or kube-apiserver, are refused', () => {
  assert.throws(() => chooseComponents([], [], ['etcd', 'kube-apiserver', 'kube-nope']), /unknown component "kube-nope"/);
  assert.throws(() => chooseComponents([], [], ['etcd', 'kwok-controller']), /--components leaves out kube-apiserver/);
  assert.throws(() => chooseComponents([], ['etcd']), /component etcd cannot be disabled/);
});

test("kwokctl's extras kwokts does not run are named as such, not as unknown", () => {
  for (const n of ['kueue', 'jobset', 'lws', 'descheduler', 'dashboard']) {
    assert.throws(() => chooseComponents([n], []), new RegExp(`^UsageError: component ${n} is one of kwokctl's extras that kwokts does not run yet$`));
  }
  // Disabling one asks for what is so anyway.
  assert.deepEqual(chooseComponents([], ['kueue']), chooseComponents([], []));
});

test('--enable scheduler-plugins adds it after the other components, in kwokctl\'s order', () => {
  assert.deepEqual(chooseComponents(['scheduler-plugins', 'prometheus'], []), ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'prometheus', 'scheduler-plugins']);
});

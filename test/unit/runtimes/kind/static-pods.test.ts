import { test } from 'node:test';
import assert from 'node:assert/strict';
import { etcdHealthWait } from '../../../../runtimes/kind/static-pods.js';

test('the etcd wait says what the kubelet and the container runtime saw when it gives up', () => {
  const wait = etcdHealthWait();
  assert.match(wait, /curl -fs http:\/\/127\.0\.0\.1:2381\/health/);
  assert.match(wait, /crictl ps -a --name etcd/);
  assert.match(wait, /pgrep -a etcd/);
  assert.match(wait, /journalctl -u kubelet/);
  assert.match(wait, />&2; exit 1;/);
});

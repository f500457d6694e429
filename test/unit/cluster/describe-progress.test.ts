import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeProgress } from '../../../src/cluster/programs.js';

test('a wait on a download lock names the download, not "another kwokts": the holder may be this process', () => {
  // etcd and etcdctl come from one archive, and one create resolves both at once: one waits for the other.
  const line = describeProgress({ type: 'wait-lock', path: '/cache/https/github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz' });
  assert.equal(line, 'waiting for the download in progress of /cache/https/github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz');
});

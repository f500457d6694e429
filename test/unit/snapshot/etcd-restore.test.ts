import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bumpFor, lacksBump, REVISION_MARGIN, rollBackWarning, servesRestored } from '../../../src/snapshot/etcd-restore.js';
import { ExternalCommandError } from '../../../src/util/errors.js';

test('the restored data starts above every revision the running cluster handed out', () => {
  assert.equal(bumpFor(4711n), 4711n + REVISION_MARGIN);
  // Restored revision = snapshot revision + bump > current revision + writes until etcd stops.
  assert.ok(1n + bumpFor(4711n) > 4711n + 10_000n);
});

test('an etcdutl that refuses --bump-revision or --mark-compacted means the full restart', () => {
  assert.equal(lacksBump('Error: unknown flag: --bump-revision\nUsage:\n  etcdutl snapshot restore ...'), true);
  assert.equal(lacksBump('Error: unknown flag: --mark-compacted'), true);
  assert.equal(lacksBump('Error: snapshot file has wrong checksum\n      --bump-revision uint   How much to increase'), false);
});

test('a list serves the restored data once its resourceVersion reaches the bump', () => {
  const list = (rv: unknown): unknown => ({ kind: 'NamespaceList', metadata: { resourceVersion: rv }, items: [] });
  assert.equal(servesRestored(list('1000500'), 1_000_100n), true);
  assert.equal(servesRestored(list('1000100'), 1_000_100n), true);
  assert.equal(servesRestored(list('999'), 1_000_100n), false);
  assert.equal(servesRestored(list(undefined), 1n), false);
  assert.equal(servesRestored(undefined, 1n), false);
});

test("a rollback's warning carries a failed command's last lines (what the kind node showed of etcd), and only the message otherwise", () => {
  const failed = new ExternalCommandError("docker exec kwok-k-control-plane sh -c '…' failed (exit 1)", ['docker', 'exec'], "etcd containers:\nCONTAINER  IMAGE  STATE\n0a1b  etcd  Exited\nkubelet on etcd:\nI1130 pod_workers.go:1300] Pod is terminated, waiting for cleanup pod=kube-system/etcd-k\n");
  const warning = rollBackWarning(failed);
  assert.match(warning, /^the restored cluster did not become ready \(docker exec .* failed \(exit 1\)\); putting the previous data back\n/);
  assert.match(warning, /\n {2}0a1b {2}etcd {2}Exited\n/);
  assert.match(warning, /\n {2}I1130 pod_workers\.go:1300\] Pod is terminated, waiting for cleanup pod=kube-system\/etcd-k$/);
  assert.equal(rollBackWarning(new Error('kube-apiserver did not serve the restored data (timed out)')), 'the restored cluster did not become ready (kube-apiserver did not serve the restored data (timed out)); putting the previous data back');
});

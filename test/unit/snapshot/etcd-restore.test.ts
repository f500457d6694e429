import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bumpFor, REVISION_MARGIN, servesRestored, supportsBump } from '../../../src/snapshot/etcd-restore.js';

test('the restored data starts above every revision the running cluster handed out', () => {
  assert.equal(bumpFor(4711n), 4711n + REVISION_MARGIN);
  // Restored revision = snapshot revision + bump > current revision + writes until etcd stops.
  assert.ok(1n + bumpFor(4711n) > 4711n + 10_000n);
});

test('the live restore needs both --bump-revision and --mark-compacted in etcdutl', () => {
  assert.equal(supportsBump('      --bump-revision uint   How much ...\n      --mark-compacted   Mark ...'), true);
  assert.equal(supportsBump('      --data-dir string   Path to the output data directory'), false);
  assert.equal(supportsBump('      --bump-revision uint'), false);
});

test('a list serves the restored data once its resourceVersion reaches the bump', () => {
  const list = (rv: unknown): unknown => ({ kind: 'NamespaceList', metadata: { resourceVersion: rv }, items: [] });
  assert.equal(servesRestored(list('1000500'), 1_000_100n), true);
  assert.equal(servesRestored(list('1000100'), 1_000_100n), true);
  assert.equal(servesRestored(list('999'), 1_000_100n), false);
  assert.equal(servesRestored(list(undefined), 1n), false);
  assert.equal(servesRestored(undefined, 1n), false);
});

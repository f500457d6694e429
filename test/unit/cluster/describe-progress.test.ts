import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeProgress } from '../../../src/cluster/programs.js';

test('a wait on a download lock names the download, not "another kwokts": the holder may be this process', () => {
  // etcd and etcdctl come from one archive, and one create resolves both at once: one waits for the other.
  const line = describeProgress({ type: 'wait-lock', path: '/cache/https/github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz' });
  assert.equal(line, 'waiting for the download in progress of /cache/https/github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz');
});

test("a Go build's progress names the module, package or binary and how many of how many", () => {
  const at = (phase: 'resolve' | 'prepare' | 'compile' | 'verify', more: { item?: string; done?: number; total?: number; line?: string }): string =>
    describeProgress({ type: 'build', kind: 'kubernetes', version: 'v1.36.1', phase, ...more });
  assert.equal(at('resolve', { item: 'k8s.io/kubernetes', done: 1, total: 1 }), 'building kubernetes v1.36.1: reading the go.mod of k8s.io/kubernetes (1/1)');
  assert.equal(at('prepare', { item: 'k8s.io/api v0.36.1', done: 12 }), 'building kubernetes v1.36.1: fetching modules, 12 so far (k8s.io/api v0.36.1)');
  assert.equal(at('compile', { item: 'k8s.io/apiserver/pkg/server', done: 812, total: 2345 }), 'building kubernetes v1.36.1: compiled 812/2345 packages (k8s.io/apiserver/pkg/server)');
  assert.equal(at('compile', {}), 'building kubernetes v1.36.1: compiling');
  assert.equal(at('verify', { item: 'kubectl', done: 4, total: 4 }), 'building kubernetes v1.36.1: checking kubectl (4/4)');
  assert.equal(at('compile', { line: 'note: something' }), 'building kubernetes v1.36.1: go: note: something');
});

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { nextCreateBinaries, programsInUse } from '../../../src/cluster/programs-in-use.js';
import { renderRecord, type ClusterRecord } from '../../../src/cluster/record.js';
import { buildComponents } from '../../../src/components/index.js';
import { resolveOptionValues } from '../../../src/config/resolve.js';
import { clusterPaths } from '../../../src/naming/naming.js';
import { sampleSpec } from '../components/sample-spec.js';

test('prune keeps what each cluster runs, and says which record it could not read', async () => {
  const workdir = mkdtempSync(join(tmpdir(), 'kwokts-in-use-'));
  try {
    const paths = clusterPaths(workdir, 'c1');
    mkdirSync(paths.root, { recursive: true });
    const record: ClusterRecord = {
      name: 'c1',
      runtime: 'binary',
      options: { runtime: 'binary' } as ClusterRecord['options'],
      componentsPatches: [],
      components: buildComponents(sampleSpec({ name: 'c1', paths }), [], []),
      programs: { kubectl: '/cache/kubectl', etcdctl: '/cache/etcdctl', etcd: '/cache/etcd' },
      kwokDocuments: [],
      version: '0.1.0',
    };
    writeFileSync(paths.config, renderRecord(record, paths.root));
    mkdirSync(clusterPaths(workdir, 'broken').root, { recursive: true });
    writeFileSync(clusterPaths(workdir, 'broken').config, 'kind: [\n');
    const used = await programsInUse(workdir);
    assert.ok(['/cache/kubectl', '/cache/etcdctl', '/cache/etcd'].every((p) => used.byCluster.get('c1')!.includes(p)), String(used.byCluster.get('c1')));
    assert.deepEqual(used.unreadable.map((u) => u.cluster), ['broken']);
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
});

test('the binaries the next create would take from the cache: downloads and Go builds of the configured versions', () => {
  const files = nextCreateBinaries(resolveOptionValues({}, { KWOK_KUBE_VERSION: 'v1.35.0', KWOK_CACHE_DIR: '/c' }, {}), '/w');
  assert.ok(files.includes('/c/gobuild/kubernetes/v1.35.0/kube-apiserver'), files.join('\n'));
  assert.ok(files.some((f) => f.startsWith('/c/https/dl.k8s.io/release/v1.35.0/') && f.endsWith('/kubectl')), files.join('\n'));
  assert.ok(files.some((f) => f.startsWith('/c/gobuild/etcd/')), files.join('\n'));
});

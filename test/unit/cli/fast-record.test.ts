import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRecordQuickly } from '../../../src/cluster/record-quick.js';
import { clusterPaths } from '../../../src/naming/naming.js';
import { loadCluster, renderRecord, type ClusterRecord } from '../../../src/cluster/record.js';
import { buildComponents } from '../../../src/components/index.js';
import { NotFoundError, UsageError } from '../../../src/util/errors.js';
import { sampleSpec } from '../components/sample-spec.js';

const KWOKCTL_FIXTURE = readFileSync(join(import.meta.dirname, '..', 'cluster', 'fixtures', 'kwokctl-record.yaml'), 'utf8');

function workdirWith(records: Record<string, string>): string {
  const workdir = mkdtempSync(join(tmpdir(), 'kwokts-fast-record-'));
  for (const [name, text] of Object.entries(records)) {
    const paths = clusterPaths(workdir, name);
    mkdirSync(paths.root, { recursive: true });
    writeFileSync(paths.config, text);
  }
  return workdir;
}

test("the passthrough's record reader reads our records and kwokctl's as loadCluster does", async () => {
  const record: ClusterRecord = {
    name: 'c1',
    runtime: 'binary',
    options: { runtime: 'binary', kubeApiserverBinary: '' } as ClusterRecord['options'],
    componentsPatches: [],
    components: buildComponents(sampleSpec(), [], []),
    programs: { etcd: '/cache/etcd', kubectl: '/cache/yes/kubectl', etcdctl: '/cache/etcdctl' },
    kwokDocuments: [{ kind: 'Stage', apiVersion: 'kwok.x-k8s.io/v1alpha1', metadata: { name: 's', annotations: { on: 'yes', at: '2024-01-01' } } }],
    version: '0.1.0',
  };
  const workdir = workdirWith({ c1: renderRecord(record, join(tmpdir(), 'c1')), theirs: KWOKCTL_FIXTURE });
  try {
    for (const name of ['c1', 'theirs']) {
      const quick = await loadRecordQuickly(workdir, name);
      const full = await loadCluster(workdir, name);
      assert.deepEqual(quick.paths, full.paths, name);
      assert.deepEqual(quick.record.programs, full.record.programs, name);
      assert.deepEqual(quick.record.components, full.record.components, name);
      assert.equal(quick.record.name, full.record.name);
    }
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
});

test("a missing or broken record gives loadCluster's errors", async () => {
  const workdir = workdirWith({ broken: 'kind: KwokctlConfiguration\n  bad: [\n' });
  try {
    await assert.rejects(loadRecordQuickly(workdir, 'absent'), (e) => e instanceof NotFoundError && /cluster absent does not exist/.test(e.message));
    await assert.rejects(loadRecordQuickly(workdir, 'broken'), (e) => e instanceof UsageError && /is not valid YAML/.test(e.message));
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineSources } from '../../../src/cli/complete-sources.js';
import { renderRecord, type ClusterRecord } from '../../../src/cluster/record.js';
import { buildComponents } from '../../../src/components/index.js';
import { RUNTIME_NAMES } from '../../../src/config/runtime-names.js';
import { clusterPaths } from '../../../src/naming/naming.js';
import { RUNTIME_NAMES as REGISTERED } from '../../../runtimes/registry.js';
import { sampleSpec } from '../components/sample-spec.js';

test('completion reads the clusters, a cluster\'s components and the resources of the config files', async () => {
  const workdir = mkdtempSync(join(tmpdir(), 'kwokts-complete-'));
  try {
    const paths = clusterPaths(workdir, 'c1');
    mkdirSync(paths.root, { recursive: true });
    const record: ClusterRecord = {
      name: 'c1',
      runtime: 'binary',
      options: { runtime: 'binary' } as ClusterRecord['options'],
      componentsPatches: [],
      components: buildComponents(sampleSpec({ name: 'c1', paths }), [], []),
      programs: {},
      kwokDocuments: [],
      version: '0.1.0',
    };
    writeFileSync(paths.config, renderRecord(record, paths.root));
    // A directory without a record is no cluster.
    mkdirSync(join(workdir, 'clusters', 'half'), { recursive: true });
    const gpu = join(workdir, 'gpu.yaml');
    writeFileSync(gpu, 'apiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokctlResource\nmetadata:\n  name: gpu-node\nparameters: {}\ntemplate: "kind: Node"\n');
    const sources = machineSources(workdir);
    assert.deepEqual(await sources.clusters(), ['c1']);
    assert.deepEqual(await sources.components('c1'), record.components.map((c) => c.name));
    assert.ok((await sources.components('c1')).includes('kube-apiserver'));
    assert.deepEqual(await sources.components('nope'), []);
    assert.deepEqual(await sources.resourceKinds([]), ['node', 'pod']);
    assert.deepEqual(await sources.resourceKinds([gpu, '-']), ['gpu-node', 'node', 'pod']);
    // A broken file offers the built-in ones; the command reports it when run.
    assert.deepEqual(await sources.resourceKinds([join(workdir, 'missing.yaml')]), ['node', 'pod']);
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
});

test('the runtime names completion offers are the registered runtimes', () => {
  assert.deepEqual([...RUNTIME_NAMES].sort(), [...REGISTERED].sort());
});

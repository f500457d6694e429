import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCommandConfig } from '../../../src/cli/command-config.js';
import { loadConfigFiles } from '../../../src/config/load.js';
import { silentLogger } from '../../../src/util/log.js';

test('a command without config files gets what the loader makes of no files (without loading it)', async (t) => {
  const workdir = mkdtempSync(join(tmpdir(), 'kwokts-config-'));
  t.after(() => rmSync(workdir, { recursive: true, force: true }));
  assert.deepEqual(await loadCommandConfig(workdir, [], silentLogger), await loadConfigFiles([], silentLogger));

  // $KWOK_WORKDIR/kwok.yaml first, then -c: both read.
  writeFileSync(join(workdir, 'kwok.yaml'), 'kind: KwokctlConfiguration\napiVersion: config.kwok.x-k8s.io/v1alpha1\noptions:\n  kubeApiserverPort: 7001\n');
  const extra = join(workdir, 'extra.yaml');
  writeFileSync(extra, 'kind: KwokctlConfiguration\napiVersion: config.kwok.x-k8s.io/v1alpha1\noptions:\n  prometheusPort: 7002\n');
  const loaded = await loadCommandConfig(workdir, [extra], silentLogger);
  assert.deepEqual(loaded.sources, [join(workdir, 'kwok.yaml'), extra]);
  assert.deepEqual(loaded.fileOptions, { kubeApiserverPort: 7001, prometheusPort: 7002 });
});

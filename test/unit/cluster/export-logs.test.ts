import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportLogs } from '../../../src/cluster/export-logs.js';
import { HOST_PLATFORM } from '../../../src/artifacts/sources.js';
import { renderRecord, type ClusterRecord } from '../../../src/cluster/record.js';
import type { ClusterOptionValues } from '../../../src/config/options.js';

function clusterOnDisk(runtime: string): { workdir: string; root: string } {
  const workdir = mkdtempSync(join(tmpdir(), 'kwokts-export-'));
  const root = join(workdir, 'clusters', 'c1');
  mkdirSync(root, { recursive: true });
  const component = (name: string): ClusterRecord['components'][number] => ({ name: name as 'etcd', program: { artifact: 'etcd' }, args: [], env: {}, links: [], ports: [] });
  const record: ClusterRecord = {
    name: 'c1',
    runtime,
    options: {} as ClusterOptionValues,
    componentsPatches: [],
    components: [component('etcd'), component('kube-apiserver'), component('kwok-controller')],
    programs: {},
    kwokDocuments: [],
    version: 'test',
  };
  writeFileSync(join(root, 'kwok.yaml'), renderRecord(record, root));
  return { workdir, root };
}

test('export logs --dry-run prints kwokctl\'s steps line for line (not the components.txt it adds) and writes nothing', async () => {
  const { workdir, root } = clusterOnDisk('binary');
  const lines: string[] = [];
  await exportLogs(workdir, 'c1', undefined, (l) => lines.push(l));
  const out = join(root, 'export', 'logs');
  assert.deepEqual(lines, [
    `mkdir -p ${out}`,
    `cp ${join(root, 'kwok.yaml')} ${join(out, 'kwok.yaml')}`,
    `mkdir -p ${join(out, 'components')}`,
    // Go's names, as kwokctl writes them: linux/amd64 rather than Node's linux/x64.
    `echo ${HOST_PLATFORM.os}/${HOST_PLATFORM.arch} >${join(out, 'binary-info.txt')}`,
    `cp ${join(root, 'logs', 'etcd.log')} ${join(out, 'components', 'etcd.log')}`,
    `cp ${join(root, 'logs', 'kube-apiserver.log')} ${join(out, 'components', 'kube-apiserver.log')}`,
    `cp ${join(root, 'logs', 'kwok-controller.log')} ${join(out, 'components', 'kwok-controller.log')}`,
  ]);
  assert.equal(existsSync(join(root, 'export')), false, 'a dry run creates nothing');
});

test("export logs --dry-run for an engine prints kwokctl's engine commands (info, then each container's logs), one word per line", async () => {
  for (const engine of ['docker', 'podman', 'nerdctl']) {
    const { workdir, root } = clusterOnDisk(engine);
    const lines: string[] = [];
    await exportLogs(workdir, 'c1', undefined, (l) => lines.push(l));
    const out = join(root, 'export', 'logs');
    const logs = (component: string): string[] => [`${engine} \\`, '  logs \\', `  kwok-c1-${component} \\`, `  >${join(out, 'components', `${component}.log`)} \\`, '  2>&1'];
    assert.deepEqual(lines, [
      `mkdir -p ${out}`,
      `cp ${join(root, 'kwok.yaml')} ${join(out, 'kwok.yaml')}`,
      `mkdir -p ${join(out, 'components')}`,
      `${engine} \\`, '  info \\', `  >${join(out, `${engine}-info.txt`)} \\`, '  2>&1',
      ...logs('etcd'),
      ...logs('kube-apiserver'),
      ...logs('kwok-controller'),
    ]);
    assert.equal(existsSync(join(root, 'export')), false, 'a dry run creates nothing');
  }
});

test('export logs --dry-run into a named directory: DIR/<cluster>', async () => {
  const { workdir } = clusterOnDisk('binary');
  const lines: string[] = [];
  const target = join(workdir, 'out');
  const { dir } = await exportLogs(workdir, 'c1', target, (l) => lines.push(l));
  assert.equal(dir, join(target, 'c1'));
  assert.equal(lines[0], `mkdir -p ${join(target, 'c1')}`);
  assert.equal(existsSync(target), false);
});

test('the host platform is named as Go names it', () => {
  assert.doesNotMatch(`${HOST_PLATFORM.os}/${HOST_PLATFORM.arch}`, /x64|ia32|win32/);
});

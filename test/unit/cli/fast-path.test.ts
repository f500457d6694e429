import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Config } from '@oclif/core';
import { routeArgv } from '../../../src/cli/argv.js';
import { BaseCommand } from '../../../src/cli/base-command.js';
import { GLOBAL_FLAG_SHAPES } from '../../../src/cli/command-flags.js';
import { classifyFast, DELETE_CLUSTER_SHAPES, SNAPSHOT_RESTORE_SHAPES, userAgent, type FastCommand } from '../../../src/cli/fast-path.js';
import { commandTable } from '../../../src/cli/main.js';
import type { FlagShape } from '../../../src/cli/pflag.js';
import { LogLevel } from '../../../src/util/log.js';
import { packageRoot } from '../../../src/util/package-root.js';
import GetClusters from '../../../src/commands/get/clusters.js';
import DeleteCluster from '../../../src/commands/delete/cluster.js';
import SnapshotRestore from '../../../src/commands/snapshot/restore.js';

// The fast path and the oclif commands read one declaration each (command-flags.ts) through two
// translators (flagShapes, toOclifFlags): these check that the two agree.
test('the fast path reads the same global flags as BaseCommand', () => {
  const fromOclif: Record<string, FlagShape> = {};
  for (const [name, flag] of Object.entries(BaseCommand.baseFlags as Record<string, FlagShape>)) {
    fromOclif[name] = { type: flag.type, ...(flag.char ? { char: flag.char } : {}), ...(flag.multiple ? { multiple: true } : {}) };
    assert.ok(!flag.allowNo, `${name}: --no- forms are not handled by the fast path`);
  }
  assert.deepEqual(GLOBAL_FLAG_SHAPES, fromOclif);
  assert.equal(GetClusters.flags.output.char, 'o');
});

test("the fast delete reads delete cluster's own flags as the command defines them", () => {
  const fromOclif: Record<string, FlagShape> = { ...GLOBAL_FLAG_SHAPES };
  for (const [name, flag] of Object.entries(DeleteCluster.flags as Record<string, FlagShape>)) {
    fromOclif[name] = { type: flag.type, ...(flag.char ? { char: flag.char } : {}), ...(flag.multiple ? { multiple: true } : {}) };
    assert.ok(!flag.allowNo, `${name}: --no- forms are not handled by the fast path`);
  }
  assert.deepEqual(DELETE_CLUSTER_SHAPES, fromOclif);
});

test("the fast restore reads snapshot restore's own flags as the command defines them", () => {
  const fromOclif: Record<string, FlagShape> = { ...GLOBAL_FLAG_SHAPES };
  for (const [name, flag] of Object.entries(SnapshotRestore.flags as Record<string, FlagShape & { options?: string[]; default?: unknown }>)) {
    fromOclif[name] = { type: flag.type, ...(flag.char ? { char: flag.char } : {}), ...(flag.multiple ? { multiple: true } : {}) };
    assert.ok(!flag.allowNo, `${name}: --no- forms are not handled by the fast path`);
  }
  assert.deepEqual(SNAPSHOT_RESTORE_SHAPES, fromOclif);
  // The fast path runs the default format only, and only when it is etcd.
  assert.equal(SnapshotRestore.flags.format.default, 'etcd');
  assert.deepEqual(SnapshotRestore.flags.format.options, ['etcd', 'k8s']);
});

test("--version prints oclif's own version line", async () => {
  const config = await Config.load(packageRoot());
  assert.equal(userAgent(), config.userAgent);
});

const kwok = { name: 'kwok', logLevel: LogLevel.INFO };
const fast: Array<[string[], FastCommand]> = [
  [['--version'], { kind: 'version' }],
  [['--version', 'whatever'], { kind: 'version' }],
  [['get', 'clusters'], { kind: 'get-clusters', globals: kwok, output: 'name' }],
  [['get', 'clusters', '-o', 'wide'], { kind: 'get-clusters', globals: kwok, output: 'wide' }],
  [['get', 'clusters', '-owide', '--output=json'], { kind: 'get-clusters', globals: kwok, output: 'json' }],
  [['--name', 'a', 'get', '-v', 'DEBUG', 'clusters', '--name=b'], { kind: 'get-clusters', globals: { name: 'b', logLevel: LogLevel.DEBUG }, output: 'name' }],
  [['kubectl', 'get', 'ns', '--name', 'x', '-h'], { kind: 'passthrough', tool: 'kubectl', globals: kwok, toolArgs: ['get', 'ns', '--name', 'x', '-h'] }],
  [['--name=ci', '-v4', '--dry-run', '-c', 'a.yaml', 'etcdctl', 'get', '/', '--prefix'], { kind: 'passthrough', tool: 'etcdctl', globals: { name: 'ci', logLevel: 4 }, toolArgs: ['get', '/', '--prefix'] }],
  [['-v', '-4', 'kectl'], { kind: 'passthrough', tool: 'kectl', globals: { name: 'kwok', logLevel: -4 }, toolArgs: [] }],
  [['delete', 'cluster'], { kind: 'delete-cluster', globals: kwok, kubeconfig: undefined, force: false }],
  [['--name', 'a', 'delete', 'cluster', '--name=b', '--force'], { kind: 'delete-cluster', globals: { name: 'b', logLevel: LogLevel.INFO }, kubeconfig: undefined, force: true }],
  [['-v', 'DEBUG', 'delete', 'cluster', '--kubeconfig', '/k', '--force=false', '--all=false', '--dry-run=0'], { kind: 'delete-cluster', globals: { name: 'kwok', logLevel: LogLevel.DEBUG }, kubeconfig: '/k', force: false }],
  [['delete', 'cluster', '--kubeconfig='], { kind: 'delete-cluster', globals: kwok, kubeconfig: '', force: false }],
  [['snapshot', 'restore', '--path', 'snap.db'], { kind: 'snapshot-restore', globals: kwok, path: 'snap.db' }],
  [['--name', 'a', 'snapshot', 'restore', '--path=x.db', '--format', 'etcd', '--name=b', '--path', 'y.db'], { kind: 'snapshot-restore', globals: { name: 'b', logLevel: LogLevel.INFO }, path: 'y.db' }],
  [['-v', 'DEBUG', 'snapshot', '-v=WARN', 'restore', '--format=etcd', '--path', '-', '--replay=false', '--dry-run=false'], { kind: 'snapshot-restore', globals: { name: 'kwok', logLevel: LogLevel.WARN }, path: '-' }],
];

test('plain hot commands take the fast path, reading flags as pflag does', () => {
  for (const [argv, expected] of fast) assert.deepEqual(classifyFast(argv), expected, argv.join(' '));
});

test('the fast path runs what the oclif path would route to the same command', async () => {
  const table = commandTable(await Config.load(packageRoot()));
  for (const [argv, expected] of fast) {
    if (expected.kind === 'version') continue;
    const routed = routeArgv(argv, table);
    if (expected.kind === 'get-clusters') assert.equal(routed[0], 'get:clusters', argv.join(' '));
    else if (expected.kind === 'delete-cluster') assert.equal(routed[0], 'delete:cluster', argv.join(' '));
    else if (expected.kind === 'snapshot-restore') assert.equal(routed[0], 'snapshot:restore', argv.join(' '));
    else if (expected.kind === 'passthrough') {
      assert.equal(routed[0], expected.tool, argv.join(' '));
      assert.deepEqual(routed.slice(routed.indexOf('--') + 1), expected.toolArgs, argv.join(' '));
    } else assert.fail(`no routing check for ${expected.kind} (${argv.join(' ')})`);
  }
});

test('anything unusual is left to oclif, so its help, messages and exit codes stay', () => {
  const slow = [
    [],
    ['--help'],
    ['-h', 'kubectl'],
    ['help', 'get', 'clusters'],
    ['get'],
    ['get', 'components'],
    ['get', 'clusters', '--help'],
    ['get', 'clusters', 'extra'],
    ['get', 'clusters', '-o', 'yaml'],
    ['get', 'clusters', '--bogus'],
    ['get', 'clusters', '--', 'x'],
    ['-o', 'wide', 'get', 'clusters'],
    ['--name', 'BAD', 'kubectl'],
    ['--name=', 'kubectl'],
    ['-v', 'nope', 'get', 'clusters'],
    ['--dry-run=maybe', 'kubectl'],
    ['--bogus', 'kubectl'],
    ['--name'],
    ['--', 'kubectl'],
    ['kwok', '--help'],
    ['create', 'cluster', '--help'],
    ['kubectl-x'],
    ['--version=1'],
    ['delete'],
    ['delete', 'clusters'],
    ['delete', 'cluster', 'extra'],
    ['delete', 'cluster', '--all'],
    ['delete', 'cluster', '--dry-run'],
    ['--dry-run', 'delete', 'cluster'],
    ['-c', 'a.yaml', 'delete', 'cluster'],
    ['delete', 'cluster', '--help'],
    ['delete', 'cluster', '-h'],
    ['delete', 'cluster', '--', 'x'],
    ['delete', 'cluster', '--force=maybe'],
    ['delete', 'cluster', '--kubeconfig'],
    ['delete', 'cluster', '--bogus'],
    ['delete', 'cluster', '--name='],
    ['delete', 'cluster', '--name', 'BAD'],
    ['delete', 'cluster', '-v', 'nope'],
    ['delete', '--force', 'cluster'],
    ['snapshot'],
    ['snapshot', 'save', '--path', 's.db'],
    ['snapshot', 'restore'],
    ['snapshot', 'restore', '--path'],
    ['snapshot', 'restore', '--path='],
    ['snapshot', 'restore', '--path', 's.db', 'extra'],
    ['snapshot', 'restore', '--path', 's.db', '--format', 'k8s'],
    ['snapshot', 'restore', '--path', 's.db', '--format', 'yaml'],
    ['snapshot', 'restore', '--path', 's.db', '--filter', 'pod'],
    ['snapshot', 'restore', '--path', 's.db', '--replay'],
    ['snapshot', 'restore', '--path', 's.db', '--replay=maybe'],
    ['snapshot', 'restore', '--path', 's.db', '--dry-run'],
    ['--dry-run', 'snapshot', 'restore', '--path', 's.db'],
    ['-c', 'a.yaml', 'snapshot', 'restore', '--path', 's.db'],
    ['snapshot', 'restore', '--path', 's.db', '--help'],
    ['snapshot', 'restore', '-h', '--path', 's.db'],
    ['snapshot', 'restore', '--path', 's.db', '--', 'x'],
    ['snapshot', 'restore', '--path', 's.db', '--bogus'],
    ['snapshot', 'restore', '--path', 's.db', '--name', 'BAD'],
    ['snapshot', 'restore', '--path', 's.db', '-v', 'nope'],
    ['snapshot', '--path', 's.db', 'restore'],
  ];
  for (const argv of slow) assert.equal(classifyFast(argv), undefined, JSON.stringify(argv));
});

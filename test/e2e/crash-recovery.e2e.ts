/**
 * A crashed component comes back with `start cluster`, and the cluster is ready again: each
 * component in turn is killed with SIGKILL, then `start cluster` runs. Dependents that backed
 * off meanwhile (the apiserver after etcd) are restarted with it. The time to ready is printed
 * (a figure to watch, not an assertion); re-measure with:
 *   npm run build && node --import tsx --test test/e2e/crash-recovery.e2e.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, kwokts, requireBinaries, sandbox, waitFor, type Sandbox, failure } from './harness.js';

const NAME = 'hd-crash';
const COMPONENTS = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller'];

function pidOf(box: Sandbox, component: string): number {
  return Number(readFileSync(join(box.workdir, 'clusters', NAME, 'pids', `${component}.pid`), 'utf8').trim());
}

describe('crash recovery', { timeout: 1_200_000 }, () => {
  let box: Sandbox;
  const rows: string[] = [];
  before(async () => {
    requireBinaries();
    box = sandbox();
    const created = await kwokts(box, ['--name', NAME, 'create', 'cluster', '--wait', '5m']);
    assert.equal(created.exitCode, 0, failure(created));
  });
  after(async () => {
    console.log(['component killed            start cluster  exit', ...rows].join('\n'));
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  test('a failed etcd restore says why and leaves no etcd-restore/ behind', async () => {
    const garbage = join(box.workdir, '..', 'not-a-snapshot.db');
    writeFileSync(garbage, 'this is not an etcd snapshot\n');
    const result = await kwokts(box, ['--name', NAME, 'snapshot', 'restore', '--path', garbage]);
    assert.equal(result.exitCode, 1, result.stderr);
    const errors = result.stderr.split('\n').filter((l) => l.startsWith('error:'));
    assert.equal(errors.length, 1, result.stderr);
    assert.match(errors[0]!, /cannot restore .*not-a-snapshot\.db: \S/);
    assert.equal(existsSync(join(box.workdir, 'clusters', NAME, 'etcd-restore')), false);
    const ns = await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'ns', 'default', '-o', 'name']);
    assert.equal(ns.exitCode, 0, failure(ns));
  });

  for (const component of COMPONENTS) {
    test(`kill -9 ${component}, then start cluster: ready again`, async () => {
      // The API answers before the crash, so "ready again" means recovered, not never broken.
      const before = await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'ns', 'default', '-o', 'name']);
      assert.equal(before.exitCode, 0, failure(before));
      const pid = pidOf(box, component);
      process.kill(pid, 'SIGKILL');
      await waitFor(`${component} (pid ${pid}) to die`, () => !isAlive(pid), 30_000, 50);
      const started = Date.now();
      const result = await kwokts(box, ['--name', NAME, 'start', 'cluster', '--wait', '5m']);
      const seconds = (Date.now() - started) / 1000;
      rows.push(`${component.padEnd(27)} ${seconds.toFixed(1).padStart(6)}s        ${result.exitCode}`);
      assert.equal(result.exitCode, 0, failure(result));
      const components = await kwokts(box, ['--name', NAME, 'get', 'components', '-o', 'json']);
      assert.equal(components.exitCode, 0, failure(components));
      const ready = (JSON.parse(components.stdout) as Array<{ name: string; ready: boolean }>).filter((c) => c.ready).map((c) => c.name);
      assert.deepEqual(ready.sort(), [...COMPONENTS].sort(), components.stdout);
      const after = await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'ns', 'default', '-o', 'name']);
      assert.equal(after.exitCode, 0, failure(after));
    });
  }

  test('delete with a malformed kubeconfig deletes the cluster, then says the context is left (exit 1)', async () => {
    const pids = COMPONENTS.map((c) => pidOf(box, c));
    writeFileSync(box.kubeconfig, 'clusters: [\n');
    const result = await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    assert.equal(result.exitCode, 1, result.stderr);
    assert.match(result.stderr, /^error: cluster hd-crash was deleted, but its context could not be removed from /m);
    assert.equal(existsSync(join(box.workdir, 'clusters', NAME)), false);
    for (const pid of pids) await waitFor(`pid ${pid} to end`, () => !isAlive(pid), 30_000);
    assert.equal(readFileSync(box.kubeconfig, 'utf8'), 'clusters: [\n', 'the broken file is left as it was');
  });
});

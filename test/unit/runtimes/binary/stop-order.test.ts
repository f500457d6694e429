import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BinaryRuntime } from '../../../../runtimes/binary/binary-runtime.js';
import { clusterPaths } from '../../../../src/naming/naming.js';
import type { Component } from '../../../../src/components/index.js';
import { DryRunExecutor } from '../../../../src/exec/dry-run-executor.js';
import type { KillSpec } from '../../../../src/exec/executor.js';
import { silentLogger } from '../../../../src/util/log.js';

const component = (name: string, links: string[]): Component => ({ name, program: { path: `/bin/${name}` }, args: [], env: {}, links, ports: [] });
const cluster = [component('etcd', []), component('kube-apiserver', ['etcd']), component('kube-scheduler', ['kube-apiserver'])];

/** The kills as they begin, each finishing only when the test's event loop moves on. */
async function killOrder(graceMs: number): Promise<string[]> {
  const events: string[] = [];
  const executor = new (class extends DryRunExecutor {
    override async kill(spec: KillSpec): Promise<void> {
      const name = spec.pidFile.replace(/.*\//, '').replace('.pid', '');
      events.push(`kill ${name}`);
      await new Promise((r) => setTimeout(r, 1));
      events.push(`gone ${name}`);
    }
  })(() => undefined);
  await new BinaryRuntime().stop(cluster, { cluster: 'c', paths: clusterPaths('/w', 'c'), executor, logger: silentLogger, programs: new Map(), clusterComponents: cluster }, { graceMs });
  return events;
}

test('a graceful stop goes in reverse start order: each group is gone before the one it depends on is stopped', async () => {
  assert.deepEqual(await killOrder(10_000), ['kill kube-scheduler', 'gone kube-scheduler', 'kill kube-apiserver', 'gone kube-apiserver', 'kill etcd', 'gone etcd']);
});

test('a stop without grace (delete) kills every component at once: with nothing shutting down there is no order to keep', async () => {
  const events = await killOrder(0);
  assert.deepEqual(events.slice(0, 3).sort(), ['kill etcd', 'kill kube-apiserver', 'kill kube-scheduler']);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BinaryRuntime } from '../../../../runtimes/binary/binary-runtime.js';
import { clusterPaths } from '../../../../src/naming/naming.js';
import type { Component } from '../../../../src/components/index.js';
import { DryRunExecutor } from '../../../../src/exec/dry-run-executor.js';
import { silentLogger } from '../../../../src/util/log.js';

const component = (name: string, path: string): Component => ({ name, program: { path }, args: [], env: {}, links: [], ports: [] });

async function pidFilesOf(components: Component[]): Promise<string[]> {
  const lines: string[] = [];
  const paths = clusterPaths('/w', 'c');
  await new BinaryRuntime().start(components, {
    cluster: 'c',
    paths,
    executor: new DryRunExecutor((t) => lines.push(t)),
    logger: silentLogger,
    programs: new Map(),
    clusterComponents: components,
  });
  return lines.join('\n').match(/pids\/[^'\s]+\.pid/g) ?? [];
}

test("pid files are named after the executable, as kwokctl's binary runtime names them", async () => {
  assert.deepEqual(await pidFilesOf([component('kube-apiserver', '/cache/kube-apiserver'), component('kwok-controller', '/pkg/bin/kwok-controller.js')]), [
    'pids/kube-apiserver.pid',
    'pids/kwok-controller.pid',
  ]);
  // An extra component run by some other program: that program's name (kwokctl's rule).
  assert.deepEqual(await pidFilesOf([component('echo', '/usr/bin/node')]), ['pids/node.pid']);
});

test('a built-in component keeps its own name whatever binary runs it (kwokctl copies it to bin/<component>)', async () => {
  assert.deepEqual(await pidFilesOf([component('kwok-controller', '/opt/kwok/bin/kwok'), component('jaeger', '/cache/jaeger-all-in-one')]), ['pids/kwok-controller.pid', 'pids/jaeger.pid']);
});

test('two components running the same executable keep their own pid files', async () => {
  assert.deepEqual(await pidFilesOf([component('a', '/usr/bin/node'), component('b', '/usr/bin/node')]), ['pids/a.pid', 'pids/b.pid']);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BinaryRuntime } from '../../../runtimes/binary/binary-runtime.js';
import { ContainerRuntime } from '../../../runtimes/container/container-runtime.js';
import { DOCKER } from '../../../runtimes/docker.js';
import { KindRuntime } from '../../../runtimes/kind/kind-runtime.js';
import type { Runtime, RuntimeContext } from '../../../runtimes/runtime.js';
import { clusterPaths } from '../../../src/naming/naming.js';
import { parsePortMapping, planPortForward, resolvePort, runPortForward, type PortForwardPlan } from '../../../src/cluster/port-forward.js';
import type { ClusterRecord, LoadedCluster } from '../../../src/cluster/record.js';
import type { Component } from '../../../src/components/index.js';
import { DryRunExecutor } from '../../../src/exec/dry-run-executor.js';
import { RealExecutor } from '../../../src/exec/real-executor.js';
import { KwoktsError, PreflightError, UsageError } from '../../../src/util/errors.js';
import { silentLogger } from '../../../src/util/log.js';

const workdir = mkdtempSync(join(tmpdir(), 'kwokts-pf-'));

function component(name: string, ports: Component['ports']): Component {
  return { name, program: { artifact: 'etcd' }, args: [], env: {}, links: [], ports };
}

const ETCD_HOST = component('etcd', [{ name: 'http', port: 32379 }, { name: 'peer-http', port: 32380 }]);
const ETCD_CONTAINER = component('etcd', [{ name: 'http', port: 32379, containerPort: 2379 }, { name: 'peer-http', port: 32380, containerPort: 2380 }]);
const APISERVER = component('kube-apiserver', [{ name: 'https', port: 32766 }]);
const CONTROLLER = component('kwok-controller', [{ name: 'http', port: 32765 }]);

function cluster(runtime: string, components: Component[]): LoadedCluster {
  const record: ClusterRecord = { name: 'pf', runtime, options: {} as ClusterRecord['options'], componentsPatches: [], components, programs: { kubectl: '/cache/kubectl' }, kwokDocuments: [], version: 'test' };
  return { record, paths: clusterPaths(workdir, 'pf') };
}

function ctx(): RuntimeContext {
  return { cluster: 'pf', paths: clusterPaths(workdir, 'pf'), executor: new RealExecutor(silentLogger), logger: silentLogger, programs: new Map() };
}

function usageError(fn: () => unknown, message: RegExp): UsageError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    assert.match(error.message, message);
    return error;
  }
  assert.fail(`expected a UsageError matching ${message}`);
}

test('port mappings: LOCAL:PORT, LOCAL empty or 0 for a free port', () => {
  assert.deepEqual(parsePortMapping('8443:https'), { localPort: 8443, remote: 'https' });
  assert.deepEqual(parsePortMapping('0:6443'), { localPort: 0, remote: '6443' });
  assert.deepEqual(parsePortMapping(':http'), { localPort: 0, remote: 'http' });
  assert.deepEqual(parsePortMapping('65535:1'), { localPort: 65535, remote: '1' });
  const bad: Array<[string, RegExp]> = [
    ['8443', /invalid port mapping "8443"/],
    ['8443:', /invalid port mapping/],
    ['1:2:3', /invalid port mapping/],
    ['abc:https', /invalid local port "abc"/],
    ['-1:https', /invalid local port "-1"/],
    ['65536:https', /invalid local port "65536"/],
    ['8443:0', /invalid port "0" in "8443:0": a port number is 1 to 65535/],
    ['8443:70000', /invalid port "70000"/],
  ];
  for (const [text, message] of bad) {
    const error = usageError(() => parsePortMapping(text), message);
    assert.match(error.hint ?? '', /LOCAL_PORT:PORT/);
  }
});

test('ports resolve by name, by host or container number; other numbers pass through; unknown names fail with the list', () => {
  assert.deepEqual(resolvePort(ETCD_CONTAINER, 'peer-http'), ETCD_CONTAINER.ports[1]);
  assert.deepEqual(resolvePort(ETCD_CONTAINER, '2379'), ETCD_CONTAINER.ports[0]);
  assert.deepEqual(resolvePort(ETCD_CONTAINER, '32380'), ETCD_CONTAINER.ports[1]);
  assert.equal(resolvePort(ETCD_CONTAINER, '4001'), 4001);
  const error = usageError(() => resolvePort(ETCD_CONTAINER, 'grpc'), /^component etcd has no port named "grpc"$/);
  assert.equal(error.hint, 'its ports: http (2379), peer-http (2380); or give a port number');
  assert.match(usageError(() => resolvePort(component('x', []), 'http'), /no port named/).hint ?? '', /declares no ports/);
});

test('endpoints: host processes and published container ports on loopback, kind pods at their in-node port', () => {
  const binary: Runtime = new BinaryRuntime();
  assert.deepEqual(binary.endpoint(ETCD_HOST, ETCD_HOST.ports[0]!, ctx()), { kind: 'address', host: '127.0.0.1', port: 32379 });
  assert.deepEqual(binary.endpoint(ETCD_HOST, 4001, ctx()), { kind: 'address', host: '127.0.0.1', port: 4001 });

  const docker: Runtime = new ContainerRuntime(DOCKER, async () => assert.fail('endpoint must not need the engine'));
  assert.deepEqual(docker.endpoint(ETCD_CONTAINER, ETCD_CONTAINER.ports[0]!, ctx()), { kind: 'address', host: '127.0.0.1', port: 32379 });
  const unpublished = usageError(() => docker.endpoint(ETCD_CONTAINER, 4001, ctx()), /^port 4001 of etcd is not published by docker/);
  assert.match(unpublished.hint ?? '', /http \(2379\), peer-http \(2380\)/);

  const kind: Runtime = new KindRuntime();
  assert.deepEqual(kind.endpoint(APISERVER, APISERVER.ports[0]!, ctx()), { kind: 'pod', namespace: 'kube-system', target: 'pod/kube-apiserver-kwok-pf-control-plane', port: 6443 });
  assert.deepEqual(kind.endpoint(CONTROLLER, CONTROLLER.ports[0]!, ctx()), { kind: 'pod', namespace: 'kube-system', target: 'deployment/kwok-controller', port: 10247 });
  assert.deepEqual(kind.endpoint(APISERVER, 10259, ctx()), { kind: 'pod', namespace: 'kube-system', target: 'pod/kube-apiserver-kwok-pf-control-plane', port: 10259 });
});

test('plan: unknown component and a local port in use fail before anything listens', async () => {
  const loaded = cluster('binary', [ETCD_HOST, APISERVER]);
  await assert.rejects(planPortForward(loaded, { component: 'etcdd', mapping: '0:http', address: '127.0.0.1' }), (error: KwoktsError) => {
    assert.ok(error instanceof UsageError);
    assert.equal(error.message, 'cluster pf has no component "etcdd"');
    assert.equal(error.hint, 'one of: etcd, kube-apiserver');
    return true;
  });
  const busy: Server = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  const port = (busy.address() as { port: number }).port;
  try {
    await assert.rejects(planPortForward(loaded, { component: 'etcd', mapping: `${port}:http`, address: '127.0.0.1' }), (error: KwoktsError) => {
      assert.ok(error instanceof PreflightError);
      assert.equal(error.message, `127.0.0.1:${port} is already in use`);
      return true;
    });
  } finally {
    await new Promise((r) => busy.close(r));
  }
  const plan = await planPortForward(loaded, { component: 'etcd', mapping: '0:peer-http', address: '127.0.0.1' });
  assert.deepEqual(plan.endpoint, { kind: 'address', host: '127.0.0.1', port: 32380 });
  assert.equal(plan.notRunning, 'stopped', 'no pid file: the component is not running');
});

async function dryRun(plan: PortForwardPlan): Promise<string[]> {
  const lines: string[] = [];
  const printed: string[] = [];
  await runPortForward(plan, { executor: new DryRunExecutor((t) => lines.push(t)), logger: silentLogger, signal: new AbortController().signal, print: (l) => printed.push(l) });
  assert.deepEqual(printed, [], 'dry-run listens on nothing');
  return lines;
}

test('dry-run prints the relay as socat, and kind as kubectl port-forward, and starts nothing', async () => {
  const binaryPlan = await planPortForward(cluster('binary', [APISERVER]), { component: 'kube-apiserver', mapping: '0:https', address: '127.0.0.1' });
  assert.deepEqual(await dryRun(binaryPlan), ['socat TCP-LISTEN:0,bind=127.0.0.1,reuseaddr,fork TCP:127.0.0.1:32766']);
  const kindPlan = await planPortForward(cluster('kind', [APISERVER, CONTROLLER]), { component: 'kwok-controller', mapping: ':http', address: '127.0.0.1' }, new KindRuntime());
  assert.deepEqual(await dryRun(kindPlan), [
    `kubectl --kubeconfig=${join(workdir, 'clusters', 'pf', 'kubeconfig.yaml')} port-forward --namespace=kube-system --address=127.0.0.1 deployment/kwok-controller :10247`,
  ]);
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterPodLogs, PodLogEntry, PodLogs } from '../../../../src/kwok/api/logs-schema.js';
import { findPodLog, LogsRegistry } from '../../../../src/kwok/controllers/logs-registry.js';
import { clusterLogsResource, logsResource } from '../../../../src/kube/client/resources.js';
import { silentLogger } from '../../../../src/util/log.js';
import { FakeKubeClient } from './fake-kube-client.js';
import { eventually } from './harness.js';

const entry = (logsFile: string | undefined, containers: string[] = [], extra: Partial<PodLogEntry> = {}): PodLogEntry => ({ containers, logsFile, previousLogsFile: undefined, follow: false, ...extra });
const podLogs = (namespace: string, name: string, logs: PodLogEntry[]): PodLogs => ({ kind: 'Logs', name, namespace, logs });
const cluster = (name: string, logs: PodLogEntry[], matchNamespaces: string[] = [], matchNames: string[] = []): ClusterPodLogs => ({ kind: 'ClusterLogs', name, matchNamespaces, matchNames, logs });

function fileOf(result: ReturnType<typeof findPodLog>): string | undefined {
  return result.found ? result.entry.logsFile : undefined;
}

describe('findPodLog', () => {
  it('a ClusterLogs without a selector applies to every pod and container', () => {
    const all = [cluster('all', [entry('/all.log')])];
    assert.equal(fileOf(findPodLog([], all, 'default', 'p', 'c')), '/all.log');
    assert.equal(fileOf(findPodLog([], all, 'kube-system', 'q', 'd')), '/all.log');
  });

  it('matchNamespaces and matchNames both have to match when both are given', () => {
    const sel = [cluster('sel', [entry('/sel.log')], ['prod'], ['web'])];
    assert.equal(fileOf(findPodLog([], sel, 'prod', 'web', 'c')), '/sel.log');
    assert.equal(fileOf(findPodLog([], sel, 'prod', 'db', 'c')), undefined);
    assert.equal(fileOf(findPodLog([], sel, 'dev', 'web', 'c')), undefined);
    assert.equal(fileOf(findPodLog([], [cluster('ns', [entry('/ns.log')], ['prod'])], 'prod', 'anything', 'c')), '/ns.log');
    assert.equal(fileOf(findPodLog([], [cluster('nm', [entry('/nm.log')], [], ['web'])], 'any-ns', 'web', 'c')), '/nm.log');
  });

  it('an entry naming the container beats an earlier catch-all; other containers get the catch-all', () => {
    const logs = [cluster('c', [entry('/any.log'), entry('/side.log', ['sidecar'])])];
    assert.equal(fileOf(findPodLog([], logs, 'd', 'p', 'sidecar')), '/side.log');
    assert.equal(fileOf(findPodLog([], logs, 'd', 'p', 'app')), '/any.log');
  });

  it('a ClusterLogs without an entry for the container lets the next one answer', () => {
    const logs = [cluster('first', [entry('/first.log', ['app'])]), cluster('second', [entry('/second.log')])];
    assert.equal(fileOf(findPodLog([], logs, 'd', 'p', 'app')), '/first.log');
    const other = findPodLog([], logs, 'd', 'p', 'other');
    assert.ok(other.found && other.from === 'ClusterLogs second');
  });

  it('entries without logsFile are ignored', () => {
    assert.equal(fileOf(findPodLog([], [cluster('c', [entry(undefined), entry('/real.log')])], 'd', 'p', 'x')), '/real.log');
  });

  it('a Logs object for the pod decides alone, over any ClusterLogs', () => {
    const own = [podLogs('shop', 'web-0', [entry('/web-0.log', ['app'])])];
    const all = [cluster('all', [entry('/all.log')])];
    assert.equal(fileOf(findPodLog(own, all, 'shop', 'web-0', 'app')), '/web-0.log');
    const missing = findPodLog(own, all, 'shop', 'web-0', 'sidecar');
    assert.deepEqual(missing.found, false);
    assert.match(!missing.found ? missing.message : '', /^log target not found for container "sidecar" in pod "shop\/web-0"/);
    // Same name in another namespace is another pod.
    assert.equal(fileOf(findPodLog(own, all, 'other', 'web-0', 'app')), '/all.log');
  });

  it('says so when nothing configures the pod', () => {
    const result = findPodLog([], [cluster('prod-only', [entry('/x')], ['prod'])], 'dev', 'p', 'c');
    assert.deepEqual(result, { found: false, message: 'no logs found for container "c" in pod "dev/p": no Logs or ClusterLogs configures it' });
  });
});

describe('LogsRegistry watching custom resources', () => {
  it('follows adds, changes and deletes, and leaves out an invalid object', async () => {
    const client = new FakeKubeClient();
    client.seed(clusterLogsResource, { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'ClusterLogs', metadata: { name: 'all' }, spec: { logs: [{ logsFile: '/all.log' }] } });
    const errors: string[] = [];
    const registry = new LogsRegistry({ logger: { ...silentLogger, error: (m: string) => errors.push(m) } });
    const abort = new AbortController();
    const running = registry.run(client, ['Logs', 'ClusterLogs'], abort.signal);
    await registry.waitForSync();
    assert.equal(fileOf(registry.lookup('d', 'p', 'c')), '/all.log');

    client.seed(logsResource, { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Logs', metadata: { name: 'p', namespace: 'd' }, spec: { logs: [{ logsFile: '/p.log' }] } });
    await eventually(() => fileOf(registry.lookup('d', 'p', 'c')) === '/p.log', 'the Logs object to take over');
    client.seed(logsResource, { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Logs', metadata: { name: 'bad', namespace: 'd' }, spec: { logs: [{ logFile: '/typo' }] } });
    await eventually(() => errors.length > 0, 'the invalid object to be reported');
    assert.match(errors[0] ?? '', /Logs "bad": unknown field "spec\.logs\[0\]\.logFile"; ignoring it/);
    assert.equal(fileOf(registry.lookup('d', 'p', 'c')), '/p.log', 'the valid object still works');
    client.remove(logsResource, 'd/p');
    await eventually(() => fileOf(registry.lookup('d', 'p', 'c')) === '/all.log', 'back to the ClusterLogs after the delete');
    abort.abort();
    await running;
  });
});

/**
 * ApiGuard with a fake runtime (what runs, what each log says) and fake requests that never get
 * an answer, as none comes from an apiserver whose etcd is gone: what is asserted is which error
 * ends the work, never how soon.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Writable } from 'node:stream';
import { createServer } from 'node:net';
import type { Runtime } from '../../../runtimes/runtime.js';
import { ApiGuard } from '../../../src/cluster/api-guard.js';
import type { LoadedCluster } from '../../../src/cluster/record.js';
import type { Component, ComponentName } from '../../../src/components/index.js';
import { KubeApiError, podsResource, type KubeClient } from '../../../src/kube/index.js';
import { clusterPaths } from '../../../src/naming/naming.js';
import { InterruptedError, OperationError, TimeoutError } from '../../../src/util/errors.js';

type State = 'running' | 'exited' | 'stopped';

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

async function fakeCluster(): Promise<{ cluster: LoadedCluster; runtime: Runtime; states: Map<ComponentName, State>; logs: Map<ComponentName, string> }> {
  const port = await closedPort();
  const component = (name: ComponentName, extra: Partial<Component> = {}): Component => ({ name, program: { path: `/bin/${name}` }, args: [], env: {}, links: [], ports: [], ...extra });
  const components = [
    component('etcd'),
    component('kube-apiserver', { links: ['etcd'], probe: { scheme: 'http', port, path: '/readyz', clientCert: false } }),
    component('kube-scheduler', { links: ['kube-apiserver'] }),
  ];
  const cluster = { record: { name: 'dd', runtime: 'binary', components, programs: {} }, paths: clusterPaths('/nonexistent/dd-work', 'dd') } as unknown as LoadedCluster;
  const states = new Map<ComponentName, State>(components.map((c) => [c.name, 'running']));
  const logs = new Map<ComponentName, string>();
  const runtime = {
    async status(of: readonly Component[]) {
      return of.map((c) => ({ name: c.name, state: states.get(c.name) ?? 'stopped' }));
    },
    async logs(name: ComponentName, _ctx: unknown, out: Writable) {
      out.end(logs.get(name) ?? '');
    },
  } as unknown as Runtime;
  return { cluster, runtime, states, logs };
}

/** A client whose every request waits forever, its signal unheard: the guard must end the work itself. */
function silentClient(): KubeClient {
  const never = (): Promise<never> => new Promise<never>(() => undefined);
  return { list: never, watch: () => ({ async *[Symbol.asyncIterator]() {} }), get: never, create: never, update: never, patch: never, patchIgnoringAnswer: never, updateIgnoringAnswer: never, delete: never, resolve: never };
}

const POD = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' } };

const ETCD_DISK_FULL = [
  '{"level":"info","ts":"2026-01-01T00:00:00.000Z","msg":"applied a request"}',
  '{"level":"fatal","ts":"2026-01-01T00:00:01.000Z","msg":"failed to write to the WAL","error":"write /w/etcd/member/wal/0.wal: no space left on device"}',
  '',
].join('\n');

/** A log that ends with what the process was doing when it was killed; the error long before is old news. */
const ETCD_KILLED = [
  '{"level":"warn","ts":"2026-01-01T00:00:00.000Z","msg":"failed to update storage version","error":"missing term information"}',
  ...Array.from({ length: 5 }, (_, i) => `{"level":"info","ts":"2026-01-01T00:00:0${i + 1}.000Z","msg":"applied request ${i}"}`),
  '',
].join('\n');

describe('ApiGuard', () => {
  it('fails before any request when a component the apiserver needs has exited, naming it and its reason', async () => {
    const { cluster, runtime, states, logs } = await fakeCluster();
    states.set('etcd', 'exited');
    logs.set('etcd', ETCD_DISK_FULL);
    const error = await ApiGuard.open(cluster, { what: 'scale node', signal: new AbortController().signal, runtime }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof OperationError);
    assert.equal(error.exitCode, 1);
    assert.equal(error.message, 'scale node: etcd of cluster dd has exited; its log says: fatal: failed to write to the WAL: write /w/etcd/member/wal/0.wal: no space left on device');
    assert.match(error.hint ?? '', /^free space on the file system that holds \/ \(see `df -h \/`\), then start it again with `kwokts --name dd start cluster`$/);
  });

  it('names the first to fail: etcd, not the apiserver that exited for want of it; a stopped cluster as such', async () => {
    const { cluster, runtime, states } = await fakeCluster();
    states.set('etcd', 'exited');
    states.set('kube-apiserver', 'exited');
    const both = await ApiGuard.open(cluster, { what: 'scale node', signal: new AbortController().signal, runtime }).then(() => undefined, (e: unknown) => e);
    assert.match((both as Error).message, /^scale node: etcd of cluster dd has exited$/);
    assert.match((both as OperationError).hint ?? '', /^read its log with `kwokts --name dd logs etcd`, then start it again with `kwokts --name dd start cluster`$/);
    for (const name of ['etcd', 'kube-apiserver', 'kube-scheduler']) states.set(name, 'stopped');
    const stopped = await ApiGuard.open(cluster, { what: 'scale node', signal: new AbortController().signal, runtime }).then(() => undefined, (e: unknown) => e);
    assert.equal((stopped as Error).message, 'scale node: cluster dd is stopped');
    assert.equal((stopped as OperationError).hint, 'start it with `kwokts --name dd start cluster`');
  });

  it('a component the apiserver does not need being down is not its concern', async () => {
    const { cluster, runtime, states } = await fakeCluster();
    states.set('kube-scheduler', 'exited');
    const guard = await ApiGuard.open(cluster, { what: 'scale node', signal: new AbortController().signal, runtime });
    assert.equal(await guard.run(Promise.resolve('done')), 'done');
  });

  it('ends a request that gets no answer once a component it needs dies, even one that does not hear its signal', async () => {
    for (const [log, said] of [
      [ETCD_DISK_FULL, '; its log says: fatal: failed to write to the WAL: write /w/etcd/member/wal/0.wal: no space left on device'],
      [ETCD_KILLED, ''],
    ] as const) {
      const { cluster, runtime, states, logs } = await fakeCluster();
      const guard = await ApiGuard.open(cluster, { what: 'scale node', signal: new AbortController().signal, runtime, stallMs: 1 });
      const client = guard.watch(silentClient());
      // etcd dies after the guard has looked (during the scale).
      states.set('etcd', 'exited');
      logs.set('etcd', log);
      const error = await guard.run(client.create(podsResource, POD, { signal: guard.signal })).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof OperationError, String(error));
      assert.equal(error.message, `scale node: etcd of cluster dd has exited${said}`);
      assert.ok(guard.signal.aborted, 'the work is told to stop too');
    }
  });

  it("a failing or unreachable apiserver is one line: what is down behind it, or else the apiserver's words", async () => {
    const { cluster, runtime, states } = await fakeCluster();
    const refused = new KubeApiError('POST /api/v1/namespaces/default/pods: connect ECONNREFUSED 127.0.0.1:1', 0, 'ECONNREFUSED');
    let guard = await ApiGuard.open(cluster, { what: 'scale pod', signal: new AbortController().signal, runtime });
    let error = await guard.run(Promise.reject(refused)).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof OperationError);
    assert.equal(error.message, 'scale pod: cannot reach kube-apiserver of cluster dd: POST /api/v1/namespaces/default/pods: connect ECONNREFUSED 127.0.0.1:1');

    const forbidden = KubeApiError.fromStatus('GET', '/api/v1/nodes', 403, { reason: 'Forbidden', message: 'nodes is forbidden' });
    guard = await ApiGuard.open(cluster, { what: 'scale node', signal: new AbortController().signal, runtime });
    error = await guard.run(Promise.reject(forbidden)).then(() => undefined, (e: unknown) => e);
    assert.equal((error as OperationError).message, 'scale node: GET /api/v1/nodes: 403 Forbidden: nodes is forbidden');

    // A create wrapped in scale's own words, answered 500 because etcd went away meanwhile.
    guard = await ApiGuard.open(cluster, { what: 'scale node', signal: new AbortController().signal, runtime });
    states.set('etcd', 'exited');
    const wrapped = new OperationError('cannot create Node node-000000: 500 InternalError: etcdserver: request timed out', { cause: KubeApiError.fromStatus('POST', '/api/v1/nodes', 500, { reason: 'InternalError' }) });
    error = await guard.run(Promise.reject(wrapped)).then(() => undefined, (e: unknown) => e);
    assert.equal((error as OperationError).message, 'scale node: etcd of cluster dd has exited');
  });

  it('passes on Ctrl-C as it is, and says at a --timeout what does not answer', async () => {
    const { cluster, runtime } = await fakeCluster();
    const interrupt = new AbortController();
    let guard = await ApiGuard.open(cluster, { what: 'scale node', signal: interrupt.signal, runtime });
    let pending = guard.run(guard.watch(silentClient()).list(podsResource, {}, guard.signal));
    interrupt.abort(new InterruptedError('SIGINT'));
    let error = await pending.then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof InterruptedError);
    assert.equal(error.exitCode, 130);

    const deadline = new AbortController();
    guard = await ApiGuard.open(cluster, { what: 'scale node', signal: deadline.signal, runtime });
    pending = guard.run(guard.watch(silentClient()).list(podsResource, {}, guard.signal));
    deadline.abort(new TimeoutError('scale did not finish within --timeout 10s', { hint: 'raise --timeout' }));
    error = await pending.then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof TimeoutError);
    assert.equal(error.exitCode, 5);
    assert.match(error.message, /^scale did not finish within --timeout 10s: kube-apiserver of cluster dd does not answer \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
  });
});

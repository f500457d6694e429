/**
 * waitForComponents against a real HTTP server on loopback that answers from a script: what is
 * counted is requests and connections, never time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ComponentExitedError, nextCheckIn, waitForComponents } from '../../../src/cluster/wait.js';
import type { Component } from '../../../src/components/index.js';
import { clusterPaths } from '../../../src/naming/naming.js';

/** A server answering each request with the next status of `statuses` (the last repeats). */
async function scriptedServer(statuses: number[]): Promise<{ server: Server; port: number; requests: () => number; connections: () => number }> {
  let requests = 0;
  let connections = 0;
  const server = createServer((_req, res) => {
    const status = statuses[Math.min(requests, statuses.length - 1)]!;
    requests++;
    res.writeHead(status).end(status === 200 ? 'ok' : '[-]poststarthook/rbac/bootstrap-roles failed: not finished\n');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, requests: () => requests, connections: () => connections };
}

function component(port: number): Component {
  return { name: 'kube-apiserver', program: { path: '/bin/x' }, args: [], env: {}, links: [], ports: [], probe: { scheme: 'http', port, path: '/readyz', clientCert: false } };
}

const paths = clusterPaths('/w', 'c1');

test('a component that answers but is not ready is checked twice as often as one that does not answer', () => {
  assert.ok(nextCheckIn({ ok: false, detail: '500', status: 500 }) < nextCheckIn({ ok: false, detail: 'connect ECONNREFUSED' }));
});

test('a component is checked over one kept-alive connection (no handshake per check) until it is ready', async (t) => {
  const s = await scriptedServer([500, 500, 500, 200]);
  t.after(() => s.server.close());
  const ready: string[] = [];
  await waitForComponents([component(s.port)], paths, { deadline: Date.now() + 60_000, onReady: (n) => ready.push(n) });
  assert.deepEqual(ready, ['kube-apiserver']);
  assert.equal(s.requests(), 4);
  assert.equal(s.connections(), 1);
});

test('only a component that does not answer is asked whether it still runs; a dead one fails the wait', async (t) => {
  const s = await scriptedServer([500, 500, 500, 200]);
  t.after(() => s.server.close());
  let asked = 0;
  await waitForComponents([component(s.port)], paths, { deadline: Date.now() + 60_000, state: async () => (asked++, { alive: true }) });
  assert.equal(s.requests(), 4);
  assert.equal(asked, 0, 'an answer (ready or not) says it runs');

  // Nothing listens there any more: the check cannot connect, so the runtime is asked, and it is gone.
  s.server.close();
  await assert.rejects(
    waitForComponents([component(s.port)], paths, { deadline: Date.now() + 60_000, state: async () => (asked++, { alive: false }) }),
    (error: Error) => error.name === 'Error' && error.message === 'kube-apiserver exited',
  );
  assert.equal(asked, 1);
});

test('a component without a probe waits for the runtime to say it is ready (kind: its pod), asking once per check', async () => {
  const unprobed: Component = { name: 'kube-scheduler', program: { path: '/bin/x' }, args: [], env: {}, links: [], ports: [] };
  const answers = [false, false, true];
  let asked = 0;
  const ready: string[] = [];
  await waitForComponents([unprobed], paths, { deadline: Date.now() + 60_000, intervalMs: 1, state: async () => ({ alive: true, ready: answers[Math.min(asked++, answers.length - 1)]! }), onReady: (n) => ready.push(n) });
  assert.equal(asked, 3, 'not ready twice, then ready: three questions, none asked twice');
  assert.deepEqual(ready, ['kube-scheduler']);

  // Not ready until the deadline: the wait fails saying so.
  await assert.rejects(
    waitForComponents([unprobed], paths, { deadline: Date.now(), intervalMs: 1, state: async () => ({ alive: true, ready: false }) }),
    (error: Error) => /kube-scheduler \(not ready\)/.test(error.message),
  );
});

test('a component that does not answer because a link of it died fails the wait naming the link, the first to fail', async () => {
  // Nothing listens on the apiserver's port, as while it waits for an etcd that could not start.
  const s = await scriptedServer([200]);
  const port = s.port;
  await new Promise((r) => s.server.close(r));
  const apiserver: Component = { ...component(port), links: ['etcd'] };
  const linksOf = (name: string): readonly string[] => (name === 'kube-apiserver' ? ['etcd'] : name === 'etcd' ? ['jaeger'] : []);
  const dead = async (down: readonly string[]): Promise<unknown> =>
    waitForComponents([apiserver], paths, { deadline: Date.now() + 60_000, intervalMs: 1, linksOf, state: async (name) => ({ alive: !down.includes(name) }) }).then(
      () => 'ready',
      (error: unknown) => (error instanceof ComponentExitedError ? error.component : error),
    );
  assert.equal(await dead(['etcd']), 'etcd', 'the apiserver still runs, its etcd does not');
  assert.equal(await dead(['etcd', 'kube-apiserver']), 'etcd', 'both gone: etcd failed first, the apiserver for want of it');
  assert.equal(await dead(['jaeger', 'etcd', 'kube-apiserver']), 'jaeger', 'links of links too');
  assert.equal(await dead(['kube-apiserver']), 'kube-apiserver', 'its links run: the apiserver itself');
});

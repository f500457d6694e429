import assert from 'node:assert/strict';
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KubeApiError, isGone } from '../../../../src/kube/client/api-error.js';
import type { Connection } from '../../../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../../../src/kube/client/http-client.js';
import { nodesResource, podsResource } from '../../../../src/kube/client/resources.js';
import type { WatchEvent } from '../../../../src/kube/client/types.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: http.Server;
let port: number;
let seen: Seen[];
let routes: Route[];

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function client(): HttpKubeClient {
  const connection: Connection = {
    server: new URL(`http://127.0.0.1:${port}`),
    tls: {},
    headers: async () => ({ Authorization: 'Bearer secret' }),
    invalidate: () => undefined,
  };
  return new HttpKubeClient(connection, { retry: { baseMs: 1, factor: 2, jitter: 0, capMs: 10, retries: 3 } });
}

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const route = routes.shift();
      if (route) route(req, res, body);
      else json(res, 500, { message: 'no route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
  routes = [];
});

describe('HttpKubeClient', () => {
  it('lists with selectors and fills apiVersion/kind on items', async () => {
    routes.push((_req, res) => json(res, 200, { metadata: { resourceVersion: '42', continue: 'next' }, items: [{ metadata: { name: 'n1' } }] }));
    const c = client();
    const result = await c.list(nodesResource, { labelSelector: 'type=kwok', limit: 10 });
    c.close();
    assert.equal(result.resourceVersion, '42');
    assert.equal(result.continue, 'next');
    assert.equal(result.items[0]!.kind, 'Node');
    assert.equal(result.items[0]!.apiVersion, 'v1');
    assert.equal(seen[0]!.url, '/api/v1/nodes?labelSelector=type%3Dkwok&limit=10');
    assert.equal(seen[0]!.headers.authorization, 'Bearer secret');
  });

  it('sends patches with the right content type, subresource and impersonation', async () => {
    routes.push((_req, res) => json(res, 200, { metadata: { name: 'p' } }));
    routes.push((_req, res) => json(res, 200, { metadata: { name: 'p' } }));
    const c = client();
    await c.patch(podsResource, { name: 'p', namespace: 'ns', patchType: 'strategic', subresource: 'status', body: { status: { phase: 'Running' } }, impersonate: 'system:node:n1' });
    await c.patch(podsResource, { name: 'p', namespace: 'ns', patchType: 'apply', body: { apiVersion: 'v1', kind: 'Pod' } });
    c.close();
    assert.equal(seen[0]!.method, 'PATCH');
    assert.equal(seen[0]!.url, '/api/v1/namespaces/ns/pods/p/status');
    assert.equal(seen[0]!.headers['content-type'], 'application/strategic-merge-patch+json');
    assert.equal(seen[0]!.headers['impersonate-user'], 'system:node:n1');
    assert.deepEqual(JSON.parse(seen[0]!.body), { status: { phase: 'Running' } });
    assert.equal(seen[1]!.url, '/api/v1/namespaces/ns/pods/p?fieldManager=kwok&force=true');
    assert.equal(seen[1]!.headers['content-type'], 'application/apply-patch+yaml');
    assert.equal(seen[0]!.headers.accept, 'application/json');
  });

  it('asks for PartialObjectMetadata when the patch answer is ignored, and still reports a failed patch', async () => {
    routes.push((_req, res) => json(res, 200, { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: { name: 'p', resourceVersion: '7' } }));
    routes.push((_req, res) => json(res, 422, { kind: 'Status', reason: 'Invalid', message: 'status.phase: Unsupported value' }));
    const c = client();
    const request = { name: 'p', namespace: 'ns', patchType: 'merge', subresource: 'status', body: { status: { phase: 'Running' } } } as const;
    assert.equal(await c.patchIgnoringAnswer(podsResource, request), undefined);
    await assert.rejects(c.patchIgnoringAnswer(podsResource, request), (error: unknown) => error instanceof KubeApiError && error.status === 422 && /Unsupported value/.test(error.message));
    c.close();
    assert.equal(seen[0]!.url, '/api/v1/namespaces/ns/pods/p/status');
    assert.equal(seen[0]!.headers['content-type'], 'application/merge-patch+json');
    assert.equal(seen[0]!.headers.accept, 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json');
  });

  it('retries 503 and 429 and surfaces other errors at once', async () => {
    routes.push((_req, res) => json(res, 503, { reason: 'ServiceUnavailable' }));
    routes.push((_req, res) => json(res, 429, { reason: 'TooManyRequests' }, { 'Retry-After': '0' }));
    routes.push((_req, res) => json(res, 200, { metadata: { name: 'n1' } }));
    const c = client();
    const node = await c.get(nodesResource, { name: 'n1' });
    assert.equal(node?.metadata.name, 'n1');
    assert.equal(seen.length, 3);

    routes.push((_req, res) => json(res, 422, { reason: 'Invalid', message: 'bad patch' }));
    await assert.rejects(c.patch(nodesResource, { name: 'n1', patchType: 'merge', body: {} }), (error: unknown) => error instanceof KubeApiError && error.status === 422 && /bad patch/.test(error.message));
    assert.equal(seen.length, 4, 'no retry for 422');
    c.close();
  });

  it('maps 404 to undefined on get and to success on delete, and deletes with grace period 0', async () => {
    routes.push((_req, res) => json(res, 404, { reason: 'NotFound' }));
    routes.push((_req, res) => json(res, 404, { reason: 'NotFound' }));
    const c = client();
    assert.equal(await c.get(podsResource, { name: 'x', namespace: 'default' }), undefined);
    await c.delete(podsResource, { name: 'x', namespace: 'default', gracePeriodSeconds: 0 });
    c.close();
    assert.equal(seen[1]!.method, 'DELETE');
    assert.deepEqual(JSON.parse(seen[1]!.body), { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 });
    assert.match(String(seen[1]!.headers.accept), /as=PartialObjectMetadata/, 'nobody reads what a delete answers');
  });

  it('streams watch events and throws Gone on an ERROR 410 event', async () => {
    routes.push((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(JSON.stringify({ type: 'ADDED', object: { kind: 'Pod', metadata: { name: 'a', resourceVersion: '5' } } }) + '\n');
      res.write(JSON.stringify({ type: 'BOOKMARK', object: { kind: 'Pod', metadata: { resourceVersion: '6' } } }) + '\n{"type":"MODIFIED","object":{"kind":"Pod","metadata":{"name":"a",');
      setTimeout(() => {
        res.write('"resourceVersion":"7"}}}\n');
        res.end(JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' } }) + '\n');
      }, 10);
    });
    const c = client();
    const events: WatchEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const event of c.watch(podsResource, { resourceVersion: '4', fieldSelector: 'spec.nodeName!=' }, new AbortController().signal)) events.push(event);
      })(),
      (error: unknown) => isGone(error),
    );
    c.close();
    assert.deepEqual(events.map((e) => `${e.type}:${e.object.metadata.resourceVersion}`), ['ADDED:5', 'BOOKMARK:6', 'MODIFIED:7']);
    assert.match(seen[0]!.url, /watch=true/);
    assert.match(seen[0]!.url, /resourceVersion=4/);
    assert.match(seen[0]!.url, /allowWatchBookmarks=true/);
    assert.match(seen[0]!.url, /fieldSelector=spec.nodeName%21%3D/);
  });

  it('delivers every event in order to a reader slower than the server, past the unread limit', async () => {
    // 3 MiB of events written at once: the client must stop reading past its 1 MiB of unread
    // chunks and go on when the reader catches up, losing and reordering nothing.
    const count = 3000;
    const pad = 'x'.repeat(1000);
    routes.push((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      for (let i = 1; i <= count; i++) res.write(JSON.stringify({ type: 'ADDED', object: { kind: 'Pod', metadata: { name: `p${i}`, resourceVersion: String(i), annotations: { pad } } } }) + '\n');
      res.end();
    });
    const c = client();
    const versions: string[] = [];
    for await (const event of c.watch(podsResource, { resourceVersion: '0' }, new AbortController().signal)) {
      versions.push(event.object.metadata.resourceVersion ?? '');
      // A slow reader: every event waits for the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
    c.close();
    assert.deepEqual(versions, Array.from({ length: count }, (_, i) => String(i + 1)));
  });

  it('ends the watch request when the reader leaves the loop early', async () => {
    let closed: Promise<unknown> | undefined;
    routes.push((req, res) => {
      closed = new Promise((resolve) => res.on('close', resolve));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(JSON.stringify({ type: 'ADDED', object: { kind: 'Pod', metadata: { name: 'a', resourceVersion: '1' } } }) + '\n');
      void req;
    });
    const c = client();
    for await (const event of c.watch(podsResource, { resourceVersion: '0' }, new AbortController().signal)) {
      assert.equal(event.object.metadata.name, 'a');
      break;
    }
    // The server sees its response closed: the client dropped the connection, nothing is left open.
    await closed;
    c.close();
  });

  it('resolves kinds through discovery and caches the answer', async () => {
    routes.push((_req, res) => json(res, 200, { resources: [{ name: 'deployments', kind: 'Deployment', namespaced: true }, { name: 'deployments/status', kind: 'Deployment', namespaced: true }] }));
    const c = client();
    const ref = await c.resolve('apps/v1', 'Deployment');
    const again = await c.resolve('apps/v1', 'deployments');
    c.close();
    assert.deepEqual(ref, { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true });
    assert.deepEqual(again, ref);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.url, '/apis/apps/v1');
  });

  it('reports connection failures as retryable status 0 errors', async () => {
    const connection: Connection = { server: new URL('http://127.0.0.1:1'), tls: {}, headers: async () => ({}), invalidate: () => undefined };
    const c = new HttpKubeClient(connection, { retry: { baseMs: 1, factor: 1, jitter: 0, capMs: 1, retries: 1 } });
    await assert.rejects(c.get(nodesResource, { name: 'x' }), (error: unknown) => error instanceof KubeApiError && error.status === 0);
    c.close();
  });
});

describe('HttpKubeClient and an abort', () => {
  // A server that never answers, as an apiserver whose etcd is gone does not (until its own timeout).
  const silent = (): ((req: IncomingMessage, res: ServerResponse) => void) => () => undefined;

  it('rejects a request in flight with the signal\'s reason, not an AbortError of its own', async () => {
    routes.push(silent());
    const c = client();
    const abort = new AbortController();
    const reason = new Error('interrupted by SIGINT');
    const pending = c.list(nodesResource, {}, abort.signal);
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    abort.abort(reason);
    await assert.rejects(pending, (error: unknown) => error === reason);
    c.close();
  });

  it('ends a create and a delete in flight when their signal aborts', async () => {
    routes.push(silent(), silent());
    const c = client();
    const abort = new AbortController();
    const reason = new Error('etcd is not running');
    const created = c.create(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' } }, { signal: abort.signal });
    const deleted = c.delete(podsResource, { name: 'q', namespace: 'default', signal: abort.signal });
    while (seen.length < 2) await new Promise((r) => setTimeout(r, 5));
    abort.abort(reason);
    await assert.rejects(created, (error: unknown) => error === reason);
    await assert.rejects(deleted, (error: unknown) => error === reason);
    c.close();
  });
});

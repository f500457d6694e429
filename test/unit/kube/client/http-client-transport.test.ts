// HttpKubeClient against real local servers: TLS (CA, client certificate, server name), IPv6 and
// a path prefix, credentials after a 401, timeouts, aborts, Retry-After, connection failures, and
// close() letting a process exit.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, resolve } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { KubeApiError } from '../../../../src/kube/client/api-error.js';
import type { Connection, TlsMaterial } from '../../../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../../../src/kube/client/http-client.js';
import { nodesResource, podsResource } from '../../../../src/kube/client/resources.js';
import { ADMIN_USER, generateClusterPki, type ClusterPki } from '../../../../src/pki/index.js';

const noRetry = { baseMs: 1, factor: 1, jitter: 0, capMs: 1, retries: 0 };

function connectionTo(server: string, tls: TlsMaterial = {}, headers: () => Promise<Record<string, string>> = async () => ({})): Connection {
  return { server: new URL(server), tls, headers, invalidate: () => undefined };
}

async function listen(server: http.Server, host = '127.0.0.1'): Promise<number> {
  server.listen(0, host);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Closes a server and every connection it still has (the client under test may keep some). */
async function shut(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

function node(name: string): string {
  return JSON.stringify({ kind: 'Node', apiVersion: 'v1', metadata: { name } });
}

describe('HttpKubeClient over TLS', () => {
  let pki: ClusterPki;
  let server: https.Server;
  let port: number;
  const seen: { cn: string | string[] | undefined; servername: string | false | null; url: string }[] = [];

  before(async () => {
    pki = await generateClusterPki({ sans: { dns: ['apiserver.test'], ips: [] } });
    // Like kube-apiserver: asks for a client certificate and verifies it against the cluster CA.
    server = https.createServer({ cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const socket = req.socket as TLSSocket;
      const peer = socket.authorized ? socket.getPeerCertificate() : undefined;
      seen.push({ cn: peer?.subject?.CN, servername: socket.servername, url: req.url ?? '' });
      if (!peer?.subject) {
        res.writeHead(401, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized', code: 401 }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(node('n1'));
    });
    port = await listen(server);
  });

  after(() => shut(server));

  it('verifies the server against the CA and authenticates with the client certificate', async () => {
    const tls: TlsMaterial = { ca: Buffer.from(pki.caCert), cert: Buffer.from(pki.adminCert), key: Buffer.from(pki.adminKey) };
    const c = new HttpKubeClient(connectionTo(`https://127.0.0.1:${port}`, tls), { retry: noRetry });
    try {
      assert.equal((await c.get(nodesResource, { name: 'n1' }))?.metadata.name, 'n1');
    } finally {
      c.close();
    }
    assert.equal(seen.at(-1)?.cn, ADMIN_USER);
  });

  it('keeps one connection across deletes with DeleteOptions, and reconnects after close()', async () => {
    let connections = 0;
    const count = (): void => {
      connections++;
    };
    server.on('secureConnection', count);
    const tls: TlsMaterial = { ca: Buffer.from(pki.caCert), cert: Buffer.from(pki.adminCert), key: Buffer.from(pki.adminKey) };
    const c = new HttpKubeClient(connectionTo(`https://127.0.0.1:${port}`, tls), { retry: noRetry, maxSockets: 1 });
    try {
      for (const name of ['a', 'b', 'c']) await c.delete(podsResource, { name, namespace: 'ns', gracePeriodSeconds: 0 });
      assert.equal(connections, 1);
      c.close();
      assert.equal((await c.get(nodesResource, { name: 'n1' }))?.metadata.name, 'n1');
      assert.equal(connections, 2);
    } finally {
      c.close();
      server.off('secureConnection', count);
    }
  });

  it('sends tls-server-name for SNI and checks the certificate against it', async () => {
    const tls: TlsMaterial = { ca: Buffer.from(pki.caCert), cert: Buffer.from(pki.adminCert), key: Buffer.from(pki.adminKey), servername: 'apiserver.test' };
    const c = new HttpKubeClient(connectionTo(`https://127.0.0.1:${port}`, tls), { retry: noRetry });
    try {
      await c.get(nodesResource, { name: 'n1' });
    } finally {
      c.close();
    }
    assert.equal(seen.at(-1)?.servername, 'apiserver.test');

    const wrong = new HttpKubeClient(connectionTo(`https://127.0.0.1:${port}`, { ...tls, servername: 'elsewhere.test' }), { retry: noRetry });
    try {
      await assert.rejects(wrong.get(nodesResource, { name: 'n1' }), (error: unknown) => error instanceof KubeApiError && error.status === 0 && error.reason === 'ERR_TLS_CERT_ALTNAME_INVALID');
    } finally {
      wrong.close();
    }
  });

  it('rejects a server its CA did not sign, unless told to skip verification', async () => {
    const untrusted = new HttpKubeClient(connectionTo(`https://127.0.0.1:${port}`), { retry: noRetry });
    try {
      await assert.rejects(untrusted.get(nodesResource, { name: 'n1' }), (error: unknown) => error instanceof KubeApiError && error.status === 0 && typeof error.reason === 'string' && /CERT|SIGNATURE|ISSUER/.test(error.reason));
    } finally {
      untrusted.close();
    }
    // insecure-skip-tls-verify, and no client certificate: the server answers 401.
    const insecure = new HttpKubeClient(connectionTo(`https://127.0.0.1:${port}`, { rejectUnauthorized: false }), { retry: noRetry });
    try {
      await assert.rejects(insecure.get(nodesResource, { name: 'n1' }), (error: unknown) => error instanceof KubeApiError && error.status === 401 && error.reason === 'Unauthorized');
    } finally {
      insecure.close();
    }
  });
});

describe('HttpKubeClient over plain HTTP', () => {
  it('reaches an IPv6 server under a path prefix, keeping the query', async () => {
    const urls: string[] = [];
    const server = http.createServer((req, res) => {
      urls.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ metadata: { resourceVersion: '1' }, items: [] }));
    });
    const port = await listen(server, '::1');
    const c = new HttpKubeClient(connectionTo(`http://[::1]:${port}/k8s/clusters/c1/`), { retry: noRetry });
    try {
      await c.list(podsResource, { namespace: 'ns', labelSelector: 'app=a' });
      await c.getRaw('/openapi/v3?x=1');
    } finally {
      c.close();
      await shut(server);
    }
    assert.deepEqual(urls, ['/k8s/clusters/c1/api/v1/namespaces/ns/pods?labelSelector=app%3Da', '/k8s/clusters/c1/openapi/v3?x=1']);
  });

  it('invalidates the credentials after a 401 and sends the fresh ones next time', async () => {
    const auth: (string | undefined)[] = [];
    const server = http.createServer((req, res) => {
      auth.push(req.headers.authorization);
      const ok = req.headers.authorization === 'Bearer new';
      res.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json' });
      res.end(ok ? node('n1') : JSON.stringify({ kind: 'Status', reason: 'Unauthorized', code: 401 }));
    });
    const port = await listen(server);
    let token = 'old';
    let invalidated = 0;
    const connection: Connection = {
      server: new URL(`http://127.0.0.1:${port}`),
      tls: {},
      headers: async () => ({ Authorization: `Bearer ${token}` }),
      invalidate: () => {
        invalidated++;
        token = 'new';
      },
    };
    const c = new HttpKubeClient(connection, { retry: noRetry });
    try {
      await assert.rejects(c.get(nodesResource, { name: 'n1' }), (error: unknown) => error instanceof KubeApiError && error.status === 401);
      assert.equal(invalidated, 1);
      assert.equal((await c.get(nodesResource, { name: 'n1' }))?.metadata.name, 'n1');
    } finally {
      c.close();
      await shut(server);
    }
    assert.deepEqual(auth, ['Bearer old', 'Bearer new']);
  });

  it('reports Retry-After of a 429 on the error', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '7' });
      res.end(JSON.stringify({ kind: 'Status', reason: 'TooManyRequests', code: 429 }));
    });
    const port = await listen(server);
    const c = new HttpKubeClient(connectionTo(`http://127.0.0.1:${port}`), { retry: noRetry });
    try {
      await assert.rejects(c.patch(nodesResource, { name: 'n1', patchType: 'merge', body: {} }), (error: unknown) => error instanceof KubeApiError && error.status === 429 && error.retryAfterMs === 7000);
    } finally {
      c.close();
      await shut(server);
    }
  });

  it('gives up on a silent server after the request timeout with a retryable ETIMEDOUT', async () => {
    const server = http.createServer(() => undefined);
    const port = await listen(server);
    const c = new HttpKubeClient(connectionTo(`http://127.0.0.1:${port}`), { retry: noRetry, requestTimeoutMs: 50 });
    try {
      await assert.rejects(c.get(nodesResource, { name: 'n1' }), (error: unknown) => error instanceof KubeApiError && error.status === 0 && error.reason === 'ETIMEDOUT' && /timeout after 50 ms/.test(error.message));
    } finally {
      c.close();
      await shut(server);
    }
  });

  it('reports a refused connection and a connection closed mid-answer with Node error codes', async () => {
    const refused = new HttpKubeClient(connectionTo('http://127.0.0.1:1'), { retry: noRetry });
    await assert.rejects(refused.get(nodesResource, { name: 'x' }), (error: unknown) => error instanceof KubeApiError && error.status === 0 && error.reason === 'ECONNREFUSED' && /^GET \/api\/v1\/nodes\/x: /.test(error.message));
    refused.close();

    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"kind":');
      res.socket?.destroy();
    });
    const port = await listen(server);
    const c = new HttpKubeClient(connectionTo(`http://127.0.0.1:${port}`), { retry: noRetry });
    try {
      await assert.rejects(c.get(nodesResource, { name: 'n1' }), (error: unknown) => error instanceof KubeApiError && error.status === 0 && error.reason === 'ECONNRESET');
    } finally {
      c.close();
      await shut(server);
    }
  });

  it('ends a request and a watch when their signal aborts, without wrapping the abort', async () => {
    const sockets = new Set<Socket>();
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      sockets.add(req.socket);
      req.socket.once('close', () => sockets.delete(req.socket));
      if (req.url?.includes('watch=true')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(JSON.stringify({ type: 'ADDED', object: { kind: 'Pod', metadata: { name: 'a', resourceVersion: '2' } } }) + '\n');
      }
      // Non-watch requests get no answer at all.
    });
    const port = await listen(server);
    const c = new HttpKubeClient(connectionTo(`http://127.0.0.1:${port}`), { retry: noRetry });
    try {
      const controller = new AbortController();
      const pending = c.getRaw('/api/v1/nodes', controller.signal);
      while (requests < 1) await new Promise((r) => setTimeout(r, 10));
      controller.abort();
      await assert.rejects(pending, (error: unknown) => error instanceof Error && error.name === 'AbortError' && !(error instanceof KubeApiError));

      const watching = new AbortController();
      const names: string[] = [];
      await assert.rejects(
        (async () => {
          for await (const event of c.watch(podsResource, { resourceVersion: '1' }, watching.signal)) {
            names.push(event.object.metadata.name ?? '');
            watching.abort();
          }
        })(),
        (error: unknown) => error instanceof Error && error.name === 'AbortError',
      );
      assert.deepEqual(names, ['a']);
      // Both connections are gone on the server's side too.
      while (sockets.size > 0) await new Promise((r) => setTimeout(r, 10));
    } finally {
      c.close();
      await shut(server);
    }
  });

  it('turns a watch refused with a status into a KubeApiError', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: 'pods is forbidden', code: 403 }));
    });
    const port = await listen(server);
    const c = new HttpKubeClient(connectionTo(`http://127.0.0.1:${port}`), { retry: noRetry });
    try {
      await assert.rejects(
        (async () => {
          for await (const _ of c.watch(podsResource, { resourceVersion: '' }, new AbortController().signal)) assert.fail('no events expected');
        })(),
        (error: unknown) => error instanceof KubeApiError && error.status === 403 && error.message === 'WATCH /api/v1/pods: 403 Forbidden: pods is forbidden',
      );
    } finally {
      c.close();
      await shut(server);
    }
  });

  it('does not retry a request that cannot be sent (a header value with a newline)', async () => {
    let requests = 0;
    const server = http.createServer((_req, res) => {
      requests++;
      res.end();
    });
    const port = await listen(server);
    let attempts = 0;
    const counting = new HttpKubeClient(connectionTo(`http://127.0.0.1:${port}`, {}, async () => {
      attempts++;
      return { Authorization: 'Bearer a\nb' };
    }), { retry: { ...noRetry, retries: 3 } });
    try {
      await assert.rejects(counting.get(nodesResource, { name: 'n1' }), (error: unknown) => error instanceof Error && !(error instanceof KubeApiError));
      assert.equal(attempts, 1, 'no retry');
      assert.equal(requests, 0);
    } finally {
      counting.close();
      await shut(server);
    }
  });

  it('works again after close(), on new connections', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(node('n1'));
    });
    const port = await listen(server);
    const c = new HttpKubeClient(connectionTo(`http://127.0.0.1:${port}`), { retry: noRetry });
    try {
      await c.get(nodesResource, { name: 'n1' });
      c.close();
      assert.equal((await c.get(nodesResource, { name: 'n1' }))?.metadata.name, 'n1');
    } finally {
      c.close();
      await shut(server);
    }
  });

  it('lets a process exit after close() while its keep-alive connection and a watch are open', { timeout: 120_000 }, async () => {
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.url?.includes('watch=true')) res.write(JSON.stringify({ type: 'ADDED', object: { kind: 'Pod', metadata: { name: 'a' } } }) + '\n');
      else res.end(node('n1'));
    });
    const port = await listen(server);
    const here = dirname(fileURLToPath(import.meta.url));
    const module = resolve(here, '../../../../src/kube/client/http-client.ts');
    // The child gets an answer, starts a watch, closes the client and must then exit on its own.
    const script = `
      import { HttpKubeClient } from ${JSON.stringify(module)};
      const c = new HttpKubeClient({ server: new URL('http://127.0.0.1:${port}'), tls: {}, headers: async () => ({}), invalidate() {} });
      await c.getRaw('/api/v1/nodes/n1');
      const watch = c.watch({ group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true }, {}, new AbortController().signal)[Symbol.asyncIterator]();
      await watch.next();
      c.close();
      watch.next().catch(() => undefined);
      console.log('closed');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    await shut(server);
    assert.equal(output.trim(), 'closed');
    assert.equal(code, 0);
  });
});

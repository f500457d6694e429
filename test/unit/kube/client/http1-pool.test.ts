// The keep-alive HTTP/1.1 pool against real local servers: one connection reused, the connection
// limit with requests waiting, a server's Connection: close, the idle limit, aborts of waiting
// requests, close(), refused connections with requests waiting, and what the server receives.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, it } from 'node:test';
import { Http1Pool, RequestFormatError, type ExchangeHandler, type Http1Request } from '../../../../src/kube/client/http1-pool.js';

interface Answer {
  status: number;
  body: string;
}

function send(pool: Http1Pool, request: Partial<Http1Request> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const chunks: Buffer[] = [];
    const handler: ExchangeHandler = {
      onHead: (s) => void (status = s),
      onData: (piece) => (chunks.push(piece), true),
      onEnd: () => resolve({ status, body: Buffer.concat(chunks).toString() }),
      onError: reject,
    };
    pool.dispatch({ method: 'GET', path: '/', headers: {}, timeoutMs: 0, ...request }, handler);
  });
}

/** A server that counts connections and answers each request with its method, URL, length and body. */
async function echoServer(options: { close?: boolean; hold?: () => Promise<void> } = {}): Promise<{ server: http.Server; url: URL; connections: Socket[]; closed: () => number }> {
  const connections: Socket[] = [];
  let closed = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      await options.hold?.();
      const body = JSON.stringify({ method: req.method, url: req.url, host: req.headers.host, length: req.headers['content-length'] ?? null, body: Buffer.concat(chunks).toString(), custom: req.headers['x-custom'] ?? null });
      res.writeHead(200, { 'Content-Type': 'application/json', ...(options.close ? { Connection: 'close' } : {}) });
      res.end(body);
    });
  });
  server.on('connection', (socket: Socket) => {
    connections.push(socket);
    socket.on('close', () => closed++);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), connections, closed: () => closed };
}

async function shut(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

const base = { keepAliveMs: 30_000, connectTimeoutMs: 5_000 };

describe('Http1Pool', () => {
  it('sends method, path, Host, headers and a body with its length, and reuses one connection', async () => {
    const { server, url, connections } = await echoServer();
    const pool = new Http1Pool({ origin: url, connections: 4, ...base });
    try {
      for (let i = 0; i < 5; i++) {
        const answer = await send(pool, { method: 'PATCH', path: `/api/v1/x?i=${i}`, headers: { 'X-Custom': 'v' }, body: '{"é":1}' });
        assert.equal(answer.status, 200);
        assert.deepEqual(JSON.parse(answer.body), { method: 'PATCH', url: `/api/v1/x?i=${i}`, host: url.host, length: '8', body: '{"é":1}', custom: 'v' });
      }
      // A PUT without a body says so; a GET sends no length.
      assert.equal(JSON.parse((await send(pool, { method: 'PUT' })).body).length, '0');
      assert.equal(JSON.parse((await send(pool)).body).length, null);
      assert.equal(connections.length, 1);
    } finally {
      pool.close();
      await shut(server);
    }
  });

  it('opens no more connections than its limit; the waiting requests go out as others finish', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { server, url, connections } = await echoServer({ hold: () => gate });
    const pool = new Http1Pool({ origin: url, connections: 2, ...base });
    try {
      const answers = Array.from({ length: 7 }, (_, i) => send(pool, { path: `/${i}` }));
      while (connections.length < 2) await new Promise((r) => setTimeout(r, 5));
      release();
      const urls = (await Promise.all(answers)).map((a) => JSON.parse(a.body).url);
      assert.deepEqual(urls, ['/0', '/1', '/2', '/3', '/4', '/5', '/6']);
      assert.equal(connections.length, 2);
    } finally {
      pool.close();
      await shut(server);
    }
  });

  it('takes a new connection after an answer with Connection: close', async () => {
    const { server, url, connections } = await echoServer({ close: true });
    const pool = new Http1Pool({ origin: url, connections: 1, ...base });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await send(pool)).status, 200);
      assert.equal(connections.length, 3);
    } finally {
      pool.close();
      await shut(server);
    }
  });

  it('closes a connection idle past keepAliveMs', async () => {
    const { server, url, connections, closed } = await echoServer();
    const pool = new Http1Pool({ origin: url, connections: 1, keepAliveMs: 20, connectTimeoutMs: 5_000 });
    try {
      await send(pool);
      const [socket] = connections;
      if (closed() === 0) await once(socket!, 'close');
      assert.equal((await send(pool)).status, 200);
      assert.equal(connections.length, 2);
    } finally {
      pool.close();
      await shut(server);
    }
  });

  it('lets a waiting request be aborted; it is never sent', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { server, url } = await echoServer({ hold: () => gate });
    const pool = new Http1Pool({ origin: url, connections: 1, ...base });
    try {
      const first = send(pool, { path: '/first' });
      const controller = new AbortController();
      const second = send(pool, { path: '/second', signal: controller.signal });
      controller.abort();
      await assert.rejects(second, (error: Error) => error.name === 'AbortError');
      const third = send(pool, { path: '/third' });
      release();
      assert.equal(JSON.parse((await first).body).url, '/first');
      assert.equal(JSON.parse((await third).body).url, '/third');
    } finally {
      pool.close();
      await shut(server);
    }
  });

  it('fails running and waiting requests with ECONNRESET on close()', async () => {
    const { server, url, connections } = await echoServer({ hold: () => new Promise(() => undefined) });
    const pool = new Http1Pool({ origin: url, connections: 1, ...base });
    try {
      const running = send(pool);
      const waiting = send(pool);
      while (connections.length < 1) await new Promise((r) => setTimeout(r, 5));
      pool.close();
      for (const request of [running, waiting]) await assert.rejects(request, (error: NodeJS.ErrnoException) => error.code === 'ECONNRESET');
      await assert.rejects(send(pool), (error: NodeJS.ErrnoException) => error.code === 'ECONNRESET');
    } finally {
      await shut(server);
    }
  });

  it('fails every waiting request when the server refuses connections', async () => {
    const { server, url } = await echoServer();
    await shut(server);
    const pool = new Http1Pool({ origin: url, connections: 1, ...base });
    const results = await Promise.allSettled([send(pool), send(pool), send(pool)]);
    for (const result of results) assert.equal(result.status === 'rejected' && (result.reason as NodeJS.ErrnoException).code, 'ECONNREFUSED');
    pool.close();
  });

  it('writes nothing for a request a header or the path cannot carry', async () => {
    const pool = new Http1Pool({ origin: new URL('http://127.0.0.1:1'), ...base });
    await assert.rejects(send(pool, { headers: { Authorization: 'Bearer a\r\nX-Evil: 1' } }), RequestFormatError);
    await assert.rejects(send(pool, { headers: { 'Bad Name': 'x' } }), RequestFormatError);
    // Frozen header sets are written once and then reused (see headerBlock): a bad one is refused every time.
    const frozen = Object.freeze({ Authorization: 'Bearer a\nb' });
    for (let i = 0; i < 2; i++) await assert.rejects(send(pool, { headers: frozen }), RequestFormatError);
    await assert.rejects(send(pool, { path: '/a b' }), RequestFormatError);
    await assert.rejects(send(pool, { method: 'GET /x HTTP/1.1\r\n' }), RequestFormatError);
    pool.close();
  });

  it('ends an answer whose server goes silent after the timeout, with ETIMEDOUT', async () => {
    const { server, url } = await echoServer({ hold: () => new Promise(() => undefined) });
    const pool = new Http1Pool({ origin: url, ...base });
    try {
      await assert.rejects(send(pool, { timeoutMs: 30 }), (error: NodeJS.ErrnoException) => error.code === 'ETIMEDOUT' && /timeout after 30 ms/.test(error.message));
    } finally {
      pool.close();
      await shut(server);
    }
  });
});

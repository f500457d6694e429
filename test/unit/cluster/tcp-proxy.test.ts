import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type Server } from 'node:net';
import { checkCanListen, runTcpProxy, type TcpAddress } from '../../../src/cluster/tcp-proxy.js';
import { PreflightError } from '../../../src/util/errors.js';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

/** Answers "<prefix><everything the client sent>" once the client has finished sending (half-close). */
function upperServer(): Server {
  return createServer({ allowHalfOpen: true }, (socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => socket.end(`got:${Buffer.concat(chunks).toString('utf8').toUpperCase()}`));
  });
}

/** Send, half-close, read to the end: what a simple request/response client does. */
function exchange(port: number, message: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.end(message));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (answer += c));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

async function startProxy(target: TcpAddress, onError?: (e: Error) => void): Promise<{ port: number; abort: AbortController; done: Promise<void> }> {
  const abort = new AbortController();
  let resolveListening!: (port: number) => void;
  const listening = new Promise<number>((r) => (resolveListening = r));
  const done = runTcpProxy({ listen: { host: '127.0.0.1', port: 0 }, target, signal: abort.signal, onListening: (a) => resolveListening(a.port), ...(onError ? { onConnectionError: onError } : {}) });
  return { port: await listening, abort, done };
}

async function isFree(port: number): Promise<boolean> {
  try {
    await checkCanListen({ host: '127.0.0.1', port });
    return true;
  } catch {
    return false;
  }
}

test('relays bytes both ways, connection after connection, including half-closed requests', async () => {
  const server = upperServer();
  const target = { host: '127.0.0.1', port: await listen(server) };
  const proxy = await startProxy(target);
  try {
    assert.equal(await exchange(proxy.port, 'hello'), 'got:HELLO');
    const answers = await Promise.all(['a', 'b', 'c'].map((m) => exchange(proxy.port, m)));
    assert.deepEqual(answers, ['got:A', 'got:B', 'got:C']);
    const big = 'x'.repeat(1 << 20);
    assert.equal((await exchange(proxy.port, big)).length, 4 + big.length);
  } finally {
    proxy.abort.abort();
    await proxy.done;
    await new Promise((r) => server.close(r));
  }
  assert.equal(await isFree(proxy.port), true, 'the local port is free once the relay ended');
});

test('abort cuts open connections and ends the relay', { timeout: 10_000 }, async () => {
  const held: Array<import('node:net').Socket> = [];
  const server = createServer((s) => held.push(s)); // never answers
  const target = { host: '127.0.0.1', port: await listen(server) };
  const proxy = await startProxy(target);
  const client = connect({ port: proxy.port, host: '127.0.0.1' });
  const closed = new Promise<void>((r) => client.on('close', () => r()));
  client.on('error', () => undefined);
  await new Promise((r) => client.once('connect', r));
  await new Promise((r) => setTimeout(r, 50));
  proxy.abort.abort();
  await proxy.done;
  await closed;
  for (const s of held) s.destroy();
  await new Promise((r) => server.close(r));
  assert.equal(await isFree(proxy.port), true);
});

test('a target that refuses is reported per connection; the relay keeps serving', async () => {
  const dead = createServer();
  const deadPort = await listen(dead);
  await new Promise((r) => dead.close(r));
  const errors: Error[] = [];
  const proxy = await startProxy({ host: '127.0.0.1', port: deadPort }, (e) => errors.push(e));
  try {
    await exchange(proxy.port, 'x').catch(() => '');
    await exchange(proxy.port, 'y').catch(() => '');
    assert.equal(errors.length, 2);
    assert.match(errors[0]!.message, /ECONNREFUSED/);
  } finally {
    proxy.abort.abort();
    await proxy.done;
  }
});

test('a port in use: a PreflightError from the probe and from the relay itself', async () => {
  const busy = createServer();
  const port = await listen(busy);
  try {
    await assert.rejects(checkCanListen({ host: '127.0.0.1', port }), (e: Error) => e instanceof PreflightError && e.message === `127.0.0.1:${port} is already in use`);
    const abort = new AbortController();
    await assert.rejects(runTcpProxy({ listen: { host: '127.0.0.1', port }, target: { host: '127.0.0.1', port: 1 }, signal: abort.signal }), PreflightError);
    await assert.rejects(checkCanListen({ host: '192.0.2.1', port: 0 }), /no such address on this machine/);
  } finally {
    await new Promise((r) => busy.close(r));
  }
});

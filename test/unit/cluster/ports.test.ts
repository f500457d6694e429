import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { allocatePorts, findFreePort, isPortInUse, portRange } from '../../../src/cluster/ports.js';
import { pinnedProbes, planFor } from './plan/plan-harness.js';

test('allocated ports are distinct, free, avoid recorded ones, and keep explicit ones', async () => {
  const ports = await allocatePorts({ a: 0, b: 0, c: 0, d: 12345 }, new Set([1]));
  const values = Object.values(ports);
  assert.equal(new Set(values).size, 4);
  assert.equal(ports.d, 12345);
  for (const p of [ports.a, ports.b, ports.c]) assert.equal(await isPortInUse(p), false);
});

test('a pinned port later in the table is never handed to an earlier free request', async () => {
  // The kernel's next "free" port is the one pinned for d (nothing listens on it yet).
  const offered = [23456, 23457, 23458, 23459];
  const pick = async (taken: ReadonlySet<number>): Promise<number> => {
    const port = offered.find((p) => !taken.has(p));
    assert.ok(port !== undefined);
    return port;
  };
  const ports = await allocatePorts({ a: 0, b: 0, d: 23456 }, new Set(), '127.0.0.1', pick);
  assert.deepEqual(ports, { a: 23457, b: 23458, d: 23456 });
});

test('isPortInUse sees a listener', async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  assert.equal(await isPortInUse(port), true);
  server.close();
});

test('free ports come from below the kernel\'s ephemeral range, where outgoing connections never take them', () => {
  assert.deepEqual(portRange(() => '32768\t60999\n'), { low: 10000, high: 32767 });
  assert.deepEqual(portRange(() => '40000 60999'), { low: 10000, high: 32767 }, 'never above 32767, as kwokctl');
  assert.deepEqual(portRange(() => '20000 60999'), { low: 10000, high: 19999 });
  assert.equal(portRange(() => '1024 65535'), undefined, 'no room below a wide range: the kernel picks');
  assert.deepEqual(
    portRange(() => {
      throw new Error('ENOENT');
    }),
    { low: 10000, high: 32767 },
    'no /proc: below 32768 is outside macOS\'s and Windows\' ranges too',
  );
});

test('findFreePort starts at a random place in the range, skips recorded and taken ports, and wraps around', async () => {
  const probed: number[] = [];
  const bindable = (free: number[]) => async (port: number): Promise<boolean> => {
    probed.push(port);
    return free.includes(port);
  };
  // Range 20000-20009, random start 20005: 20005 is recorded, 20006 taken, 20007 free.
  const range = { low: 20000, high: 20009 };
  assert.equal(await findFreePort(new Set([20005]), '127.0.0.1', range, () => 0.5, bindable([20007])), 20007);
  assert.deepEqual(probed, [20006, 20007], 'a recorded port is not even probed');
  // From the last port it wraps to the first.
  assert.equal(await findFreePort(new Set(), '127.0.0.1', range, () => 0.99, bindable([20000])), 20000);
  // Nothing free in the range: the kernel picks one.
  assert.ok((await findFreePort(new Set(), '127.0.0.1', range, () => 0, bindable([]))) > 0);

  const real = portRange();
  const port = await findFreePort(new Set());
  if (real) assert.ok(port >= real.low && port <= real.high, `${port} outside ${real.low}-${real.high}`);
});

test('with another bind address, a port must be free on it as well as on loopback', async () => {
  const asked: string[] = [];
  const takenOn = (host: string, port: number) => async (p: number, at: string): Promise<boolean> => {
    asked.push(`${at}:${p}`);
    return !(at === host && p === port);
  };
  const range = { low: 20000, high: 20009 };
  // 20000 is free on loopback but taken on 0.0.0.0 (something listens on another address).
  assert.equal(await findFreePort(new Set(), '0.0.0.0', range, () => 0, takenOn('0.0.0.0', 20000)), 20001);
  assert.deepEqual(asked, ['127.0.0.1:20000', '0.0.0.0:20000', '127.0.0.1:20001', '0.0.0.0:20001']);
  asked.length = 0;
  // The default (loopback) bind address is probed once.
  assert.equal(await findFreePort(new Set(), '127.0.0.1', range, () => 0, takenOn('0.0.0.0', 20000)), 20000);
  assert.deepEqual(asked, ['127.0.0.1:20000']);
});

test('a port taken on another address is not handed out for --bind-address 0.0.0.0 (real sockets)', async () => {
  // 127.0.0.2 is loopback too on Linux, but another address than 127.0.0.1: a listener there
  // leaves 127.0.0.1:P bindable and 0.0.0.0:P not.
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(0, '127.0.0.2', () => resolve(true));
  });
  if (!listening) return; // no 127.0.0.2 on this machine (not Linux)
  try {
    const port = (server.address() as { port: number }).port;
    assert.equal(await isPortInUse(port, '127.0.0.1'), false, 'free on 127.0.0.1');
    const range = { low: port, high: port + 1 };
    const picked = await findFreePort(new Set(), '0.0.0.0', range, () => 0);
    assert.notEqual(picked, port);
    assert.equal(await findFreePort(new Set(), '127.0.0.1', range, () => 0), port, 'a loopback bind may use it');
  } finally {
    server.close();
  }
});

test('create looks for free ports on the address its components bind', async () => {
  for (const bindAddress of ['0.0.0.0', '127.0.0.1']) {
    const pinned = pinnedProbes();
    const asked: string[] = [];
    await planFor({
      runtime: 'binary',
      flags: { bindAddress },
      probes: { ...pinned, allocatePorts: async (requested, avoid, at) => (asked.push(at), pinned.allocatePorts(requested, avoid, at)) },
    });
    assert.deepEqual(asked, [bindAddress]);
  }
});

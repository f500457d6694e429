import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { allocatePorts, isPortInUse } from '../../../src/cluster/ports.js';

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

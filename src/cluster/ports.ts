import { createServer } from 'node:net';
import type { Component } from '../components/index.js';

/**
 * A free loopback port chosen by the kernel. Ports already recorded by other clusters are
 * skipped, since a stopped cluster still owns its ports. The small window between probing and
 * the component binding is covered by readiness checks: a lost race fails the create, which
 * rolls back.
 */
export async function findFreePort(avoid: ReadonlySet<number>, host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.once('error', reject);
      server.listen({ port: 0, host, exclusive: true }, () => {
        const address = server.address();
        const p = typeof address === 'object' && address ? address.port : 0;
        server.close(() => resolve(p));
      });
    });
    if (port > 0 && !avoid.has(port)) return port;
  }
  throw new Error('no free port found on loopback after 50 attempts');
}

/** True when something already listens on host:port (used to explain an explicit port clash). */
export async function isPortInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(true));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(false)));
  });
}

/**
 * Allocate every requested port (0 = any), never handing out the same port twice. Every pinned
 * port is reserved before any free one is chosen: a pinned port nobody listens on yet is "free"
 * to the kernel, which readily hands a just-closed port out again, so a component earlier in
 * the table could otherwise be given the port the user pinned for a later one.
 */
export async function allocatePorts<K extends string>(
  requested: Record<K, number>,
  avoid: ReadonlySet<number>,
  host = '127.0.0.1',
  pick: (taken: ReadonlySet<number>, host: string) => Promise<number> = findFreePort,
): Promise<Record<K, number>> {
  const keys = Object.keys(requested) as K[];
  const taken = new Set([...avoid, ...keys.map((key) => requested[key]).filter((want) => want > 0)]);
  const out = {} as Record<K, number>;
  for (const key of keys) {
    const want = requested[key];
    const port = want > 0 ? want : await pick(taken, host);
    taken.add(port);
    out[key] = port;
  }
  return out;
}

/**
 * After a kill: a killed multi-threaded process is reported gone (its main thread a zombie) while
 * its other threads still hold its listening sockets, so a component started again at once could
 * find its port taken. Waits (up to timeoutMs) until the components' ports are free.
 */
export async function waitForPortsFree(components: readonly Component[], bindAddress: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const port of components.flatMap((c) => c.ports.map((p) => p.port))) {
    while ((await isPortInUse(port, bindAddress)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }
}

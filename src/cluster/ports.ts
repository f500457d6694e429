import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Component } from '../components/index.js';

/** The lowest port handed out: below it are the well-known and registered ports services expect. */
const LOWEST_PORT = 10_000;

/**
 * Where free ports are looked for: below the kernel's ephemeral range (ip_local_port_range, from
 * which it picks the local port of every outgoing connection). A port from inside that range could
 * be taken, between our probe and the component's bind, as the local end of any connection on the
 * machine, such as another cluster's apiserver talking to its etcd: CI once saw a create fail that
 * way ("bind: address already in use") with two clusters starting side by side. kwokctl also picks
 * ports below 32768. Undefined when the range leaves too little room below it, and the kernel picks.
 */
export function portRange(readRange: () => string = () => readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')): { low: number; high: number } | undefined {
  let ephemeralLow = 32_768;
  try {
    const first = Number(readRange().trim().split(/\s+/)[0]);
    if (Number.isInteger(first) && first > 0) ephemeralLow = first;
  } catch {
    // Not Linux: macOS and Windows hand out 49152 and up, so below 32768 is outside theirs too.
  }
  const high = Math.min(ephemeralLow, 32_768) - 1;
  return high - LOWEST_PORT >= 1_000 ? { low: LOWEST_PORT, high } : undefined;
}

/** A port the kernel picks (from its ephemeral range). */
function kernelPort(host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      const p = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(p));
    });
  });
}

/**
 * The addresses a port must be free on: loopback, and the address the components bind when it is
 * another (`--bind-address`). A port free on loopback can still be taken on another address
 * (something listening on 192.168.1.5:P), where a component binding 0.0.0.0:P then fails. (kwokctl
 * probes loopback and the wildcard address, whatever it binds.)
 */
function probeHosts(bindAddress: string): string[] {
  return [...new Set(['127.0.0.1', bindAddress || '127.0.0.1'])];
}

/**
 * A free port below the kernel's ephemeral range (see portRange), free on loopback and on
 * `bindAddress`, starting from a random place so that creates running at once rarely probe the
 * same ports. Ports recorded by other clusters are skipped, since a stopped cluster still owns
 * its ports. What is left of a race (another program binding the port between the probe and the
 * component) fails the create, which rolls back.
 */
export async function findFreePort(
  avoid: ReadonlySet<number>,
  bindAddress = '127.0.0.1',
  range = portRange(),
  random: () => number = Math.random,
  probe: (port: number, host: string) => Promise<boolean> = async (port, at) => !(await isPortInUse(port, at)),
): Promise<number> {
  const hosts = probeHosts(bindAddress);
  const freeOn = async (port: number, on: readonly string[]): Promise<boolean> => {
    for (const host of on) if (!(await probe(port, host))) return false;
    return true;
  };
  if (range) {
    const size = range.high - range.low + 1;
    const start = Math.floor(random() * size);
    for (let i = 0; i < Math.min(size, 500); i++) {
      const port = range.low + ((start + i) % size);
      if (!avoid.has(port) && (await freeOn(port, hosts))) return port;
    }
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    // The kernel picks a port free on the bind address; loopback, when that is another, is probed.
    const port = await kernelPort(hosts.at(-1)!);
    if (port > 0 && !avoid.has(port) && (await freeOn(port, hosts.slice(0, -1)))) return port;
  }
  throw new Error(`no free port found on ${hosts.join(' and ')} after 50 attempts`);
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

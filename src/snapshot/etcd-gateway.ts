/**
 * A few calls to etcd's JSON gateway (the gRPC API as HTTP POSTs on its client port), in-process
 * with the host's etcd client certificate: cheaper than starting etcdctl for each, and the only
 * way to grant a lease with a given ID.
 */
import { readFile } from 'node:fs/promises';
import pLimit from 'p-limit';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ClusterRecord, LoadedCluster } from '../cluster/record.js';
import { etcdClientArgs } from '../cluster/etcd-client.js';

export interface EtcdGateway {
  /** POSTs `body` to `path` (e.g. /v3/lease/leases) and returns the parsed answer; rejects on a non-2xx status. */
  call(path: string, body: object, signal?: AbortSignal): Promise<unknown>;
}

export async function etcdGateway(record: ClusterRecord, paths: LoadedCluster['paths']): Promise<EtcdGateway> {
  const { endpoint, tlsArgs } = etcdClientArgs(record, paths);
  const url = new URL(endpoint);
  const tls = tlsArgs.length > 0 ? { ca: await readFile(paths.etcdCaCert), cert: await readFile(paths.etcdClientCert), key: await readFile(paths.etcdClientKey) } : undefined;
  return {
    call: (path, body, signal) =>
      new Promise((resolve, reject) => {
        const payload = JSON.stringify(body);
        const options = { hostname: url.hostname, port: url.port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }, ...(signal ? { signal } : {}), ...(tls ?? {}) };
        const req = (tls ? httpsRequest : httpRequest)(options, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((res.statusCode ?? 0) >= 300) return reject(new Error(`etcd ${path}: ${res.statusCode} ${text.slice(0, 200)}`));
            try {
              resolve(JSON.parse(text));
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          });
        });
        req.on('error', reject);
        req.end(payload);
      }),
  };
}

/** etcd's current revision (maintenance status); int64s come as strings from the gateway. */
export async function currentRevision(gateway: EtcdGateway, signal?: AbortSignal): Promise<bigint> {
  const status = (await gateway.call('/v3/maintenance/status', {}, signal)) as { header?: { revision?: string | number } };
  const revision = status.header?.revision;
  if (revision === undefined || !/^\d+$/.test(String(revision))) throw new Error('etcd did not say its revision');
  return BigInt(revision);
}

/** The IDs of etcd's leases. */
export async function leaseIds(gateway: EtcdGateway, signal?: AbortSignal): Promise<string[]> {
  const list = (await gateway.call('/v3/lease/leases', {}, signal)) as { leases?: Array<{ ID?: string | number }> };
  return (list.leases ?? []).map((l) => String(l.ID ?? '')).filter((id) => /^\d+$/.test(id));
}

/**
 * Calls per lease in flight at once. Each request listens on the caller's abort signal, and a kind
 * cluster has dozens of leases: unbounded, every restore there printed Node's "possible
 * EventTarget memory leak" warning (more than 10 listeners on one signal).
 */
const LEASE_CALLS_AT_ONCE = 6;

/** Each lease's remaining TTL in seconds (leases that expire meanwhile are left out). */
export async function leaseTtls(gateway: EtcdGateway, signal?: AbortSignal): Promise<Map<string, number>> {
  const ids = await leaseIds(gateway, signal);
  const limit = pLimit(LEASE_CALLS_AT_ONCE);
  const ttls = await Promise.all(
    ids.map(async (id) => {
      const answer = (await limit(() => gateway.call('/v3/lease/timetolive', { ID: id }, signal)).catch(() => undefined)) as { TTL?: string | number } | undefined;
      return [id, Number(answer?.TTL ?? -1)] as const;
    }),
  );
  return new Map(ttls.filter(([, ttl]) => ttl > 0));
}

/** Grants each lease of `ttls` that etcd lacks, with its ID and remaining TTL; returns how many. */
export async function grantMissing(gateway: EtcdGateway, ttls: ReadonlyMap<string, number>, signal?: AbortSignal): Promise<number> {
  const present = new Set(await leaseIds(gateway, signal));
  const missing = [...ttls].filter(([id]) => !present.has(id));
  const limit = pLimit(LEASE_CALLS_AT_ONCE);
  await Promise.all(missing.map(([id, ttl]) => limit(() => gateway.call('/v3/lease/grant', { ID: id, TTL: String(ttl) }, signal))));
  return missing.length;
}

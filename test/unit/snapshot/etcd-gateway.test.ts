import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClusterRecord, LoadedCluster } from '../../../src/cluster/record.js';
import { currentRevision, etcdGateway, grantMissing, leaseTtls } from '../../../src/snapshot/etcd-gateway.js';

/** A fake etcd gateway on plain HTTP (as a cluster made before etcd required TLS is reached). */
async function fakeEtcd(leases: Map<string, number>): Promise<{ record: ClusterRecord; paths: LoadedCluster['paths']; grants: unknown[]; close: () => void }> {
  const grants: unknown[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const input = JSON.parse(body || '{}') as { ID?: string; TTL?: string };
      const header = { revision: '9007199254740993' };
      const answers: Record<string, () => unknown> = {
        '/v3/maintenance/status': () => ({ header }),
        '/v3/lease/leases': () => ({ header, leases: [...leases.keys()].map((ID) => ({ ID })) }),
        '/v3/lease/timetolive': () => ({ header, ID: input.ID, TTL: String(leases.get(input.ID!) ?? -1) }),
        '/v3/lease/grant': () => (grants.push(input), { header, ID: input.ID, TTL: input.TTL }),
      };
      const answer = answers[req.url ?? ''];
      res.writeHead(answer ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer ? answer() : { error: 'not found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const record = { name: 'c', components: [{ name: 'etcd', ports: [{ name: 'http', port }] }] } as unknown as ClusterRecord;
  return { record, paths: {} as LoadedCluster['paths'], grants, close: () => server.close() };
}

test("etcd's revision comes from the gateway, exactly (beyond 2^53)", async () => {
  const etcd = await fakeEtcd(new Map());
  try {
    assert.equal(await currentRevision(await etcdGateway(etcd.record, etcd.paths)), 9007199254740993n);
  } finally {
    etcd.close();
  }
});

test('leases the restored etcd lacks are granted again with their IDs and remaining TTLs', async () => {
  const before = await fakeEtcd(new Map([['101', 3000], ['102', 12], ['103', -1]]));
  let ttls: Map<string, number>;
  try {
    ttls = await leaseTtls(await etcdGateway(before.record, before.paths));
  } finally {
    before.close();
  }
  assert.deepEqual([...ttls], [['101', 3000], ['102', 12]], 'an expired lease is left out');
  const after = await fakeEtcd(new Map([['102', 15]]));
  try {
    assert.equal(await grantMissing(await etcdGateway(after.record, after.paths), ttls), 1);
    assert.deepEqual(after.grants, [{ ID: '101', TTL: '3000' }]);
  } finally {
    after.close();
  }
});

test("a cluster's many leases are asked and granted without Node's listener-leak warning on the caller's signal", async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  const leases = new Map(Array.from({ length: 40 }, (_, i) => [String(1000 + i), 60 + i] as const));
  const before = await fakeEtcd(leases);
  const after = await fakeEtcd(new Map());
  try {
    const signal = new AbortController().signal;
    const ttls = await leaseTtls(await etcdGateway(before.record, before.paths), signal);
    assert.equal(ttls.size, 40);
    assert.equal(await grantMissing(await etcdGateway(after.record, after.paths), ttls, signal), 40);
    // Warnings are emitted on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')), []);
  } finally {
    process.off('warning', onWarning);
    before.close();
    after.close();
  }
});

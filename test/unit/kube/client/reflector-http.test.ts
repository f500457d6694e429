// A Reflector over the real HttpKubeClient, fed what a real kube-apiserver (v1.36) sent a watcher
// for a graceful pod delete (test/fixtures/watch/pod-graceful-delete.jsonl). The client decodes
// the DELETED event's metadata only; what the reflector hands on must still be the whole object
// the apiserver sent, as a full decode would give it (less managedFields, which it drops).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Connection } from '../../../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../../../src/kube/client/http-client.js';
import { Reflector } from '../../../../src/kube/client/reflector.js';
import { podsResource } from '../../../../src/kube/client/resources.js';
import type { KubeObject } from '../../../../src/kube/client/types.js';
import { silentLogger } from '../../../../src/util/log.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'fixtures', 'watch');
const lines = readFileSync(join(fixtures, 'pod-graceful-delete.jsonl'), 'utf8').trim().split('\n');
const events = lines.map((l) => JSON.parse(l) as { type: string; object: KubeObject });

function withoutManagedFields(object: KubeObject): KubeObject {
  const copy = structuredClone(object);
  delete copy.metadata.managedFields;
  return copy;
}

let server: http.Server;
let port: number;

before(async () => {
  // The list holds the pod as the first event shows it; the watch from there sends all three lines.
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    if (!req.url?.includes('watch=true')) {
      const { kind: _kind, apiVersion: _apiVersion, ...item } = events[0]!.object;
      res.end(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '224' }, items: [item] }));
      return;
    }
    res.end(lines.join('\n') + '\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('Reflector over HttpKubeClient', () => {
  it('hands on a DELETED event decoded as metadata only as the whole object the apiserver sent', async () => {
    const connection: Connection = { server: new URL(`http://127.0.0.1:${port}`), tls: {}, headers: async () => ({}), invalidate: () => undefined };
    const client = new HttpKubeClient(connection);
    const abort = new AbortController();
    const seen: Array<[string, KubeObject]> = [];
    const reflector = new Reflector({
      client,
      ref: podsResource,
      logger: silentLogger,
      onEvent: (type, object) => {
        seen.push([type, structuredClone(object)]);
        if (type === 'DELETED') abort.abort();
      },
    });
    await reflector.run(abort.signal);
    client.close();
    assert.deepEqual(
      seen.map(([type]) => type),
      ['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED'],
    );
    assert.deepEqual(seen[3]![1], withoutManagedFields(events[2]!.object));
    assert.equal(reflector.store.size, 0);
  });
});

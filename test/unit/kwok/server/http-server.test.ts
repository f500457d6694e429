import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveListenAddress, startKwokServer } from '../../../../src/kwok/server/http-server.js';
import { KwokMetrics } from '../../../../src/kwok/server/kwok-metrics.js';
import { silentLogger } from '../../../../src/util/log.js';

describe('resolveListenAddress', () => {
  it('follows --server-address and --node-port', () => {
    assert.equal(resolveListenAddress('', 0), undefined);
    assert.deepEqual(resolveListenAddress('', 10247), { host: '127.0.0.1', port: 10247 });
    assert.deepEqual(resolveListenAddress(':10250', 10247), { host: '127.0.0.1', port: 10250 });
    assert.deepEqual(resolveListenAddress('0.0.0.0:10247', 0), { host: '0.0.0.0', port: 10247 });
    assert.deepEqual(resolveListenAddress('[::1]:8080', 0), { host: '::1', port: 8080 });
    assert.throws(() => resolveListenAddress('localhost', 0));
  });
});

describe('kwok server', () => {
  it('answers health checks and serves Prometheus metrics', async () => {
    const metrics = new KwokMetrics();
    metrics.bindStats(() => ({ managedNodes: 3, managedPods: 7, heldLeases: 3, queueDepth: { Node: 1, Pod: 0 } }));
    metrics.stagePlayed('Pod', 'pod-ready', 'success', 0.003);
    metrics.apiRequest('PATCH', { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true }, 200, 0.002);
    let ready = false;
    const server = await startKwokServer({ listen: { host: '127.0.0.1', port: 0 }, renderMetrics: () => metrics.render(), isReady: () => ready, logger: silentLogger });
    const base = `http://127.0.0.1:${server.address.port}`;
    try {
      for (const path of ['/healthz', '/livez']) {
        const res = await fetch(base + path);
        assert.equal(res.status, 200);
        assert.equal(await res.text(), 'ok');
      }
      assert.equal((await fetch(`${base}/readyz`)).status, 503);
      ready = true;
      assert.equal(await (await fetch(`${base}/readyz`)).text(), 'ok');
      const text = await (await fetch(`${base}/metrics`)).text();
      assert.match(text, /^kwok_managed_nodes 3$/m);
      assert.match(text, /^kwok_managed_pods 7$/m);
      assert.match(text, /^kwok_queue_depth\{kind="Node"\} 1$/m);
      assert.match(text, /^kwok_stage_plays_total\{kind="Pod",stage="pod-ready",result="success"\} 1$/m);
      assert.match(text, /^kwok_api_request_duration_seconds_bucket\{verb="PATCH",resource="pods",code="200",le="0.0025"\} 1$/m);
      assert.match(text, /^process_resident_memory_bytes \d+$/m);
      assert.match(text, /^# TYPE process_cpu_seconds_total counter$/m);
      assert.equal((await fetch(`${base}/nope`)).status, 404);
    } finally {
      await server.close();
    }
  });
});

describe('kwok server with TLS', () => {
  it('serves HTTPS and plain HTTP on the same port', async (t) => {
    const { execFileSync } = await import('node:child_process');
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const https = await import('node:https');
    const dir = mkdtempSync(join(tmpdir(), 'kwok-tls-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const certFile = join(dir, 'tls.crt');
    const keyFile = join(dir, 'tls.key');
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
    } catch {
      t.skip('openssl is not available');
      return;
    }
    const server = await startKwokServer({ listen: { host: '127.0.0.1', port: 0 }, renderMetrics: () => '', tls: { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') }, logger: silentLogger });
    try {
      const port = server.address.port;
      assert.equal(await (await fetch(`http://127.0.0.1:${port}/healthz`)).text(), 'ok');
      const body = await new Promise<string>((resolve, reject) => {
        https
          .get({ host: '127.0.0.1', port, path: '/livez', rejectUnauthorized: false }, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      assert.equal(body, 'ok');
    } finally {
      await server.close();
    }
  });
});

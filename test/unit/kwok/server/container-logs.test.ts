import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ContainerLogsError, CONTAINER_LOGS_PREFIX, handleContainerLogs, parseContainerLogsRequest } from '../../../../src/kwok/server/container-logs.js';
import { startKwokServer } from '../../../../src/kwok/server/http-server.js';
import type { RunningServer } from '../../../../src/kwok/server/http-server.js';
import { LogsRegistry } from '../../../../src/kwok/controllers/logs-registry.js';
import { silentLogger } from '../../../../src/util/log.js';

const NOW = Date.UTC(2024, 4, 1, 12, 0, 0);

describe('parseContainerLogsRequest', () => {
  it('reads the path and the query the apiserver forwards', () => {
    assert.deepEqual(parseContainerLogsRequest('/containerLogs/default/web-0/app', NOW), { namespace: 'default', pod: 'web-0', container: 'app', follow: false, previous: false, timestamps: false });
    assert.deepEqual(parseContainerLogsRequest('/containerLogs/ns/p%2Fx/c?follow=true&previous=true&timestamps=true&tailLines=5&limitBytes=100&sinceSeconds=30', NOW), {
      namespace: 'ns',
      pod: 'p/x',
      container: 'c',
      follow: true,
      previous: true,
      timestamps: true,
      tailLines: 5,
      limitBytes: 100,
      sinceMs: NOW - 30_000,
    });
  });

  it('takes booleans as Kubernetes does: present and not false/0', () => {
    assert.equal(parseContainerLogsRequest('/containerLogs/a/b/c?follow', NOW).follow, true);
    assert.equal(parseContainerLogsRequest('/containerLogs/a/b/c?follow=1', NOW).follow, true);
    assert.equal(parseContainerLogsRequest('/containerLogs/a/b/c?follow=false', NOW).follow, false);
    assert.equal(parseContainerLogsRequest('/containerLogs/a/b/c?follow=0', NOW).follow, false);
  });

  it('the later of sinceSeconds and sinceTime wins; the old tail parameter overrides tailLines', () => {
    assert.equal(parseContainerLogsRequest('/containerLogs/a/b/c?sinceSeconds=60&sinceTime=2024-05-01T11:59:30Z', NOW).sinceMs, NOW - 30_000);
    assert.equal(parseContainerLogsRequest('/containerLogs/a/b/c?sinceSeconds=10&sinceTime=2024-05-01T11:00:00Z', NOW).sinceMs, NOW - 10_000);
    assert.equal(parseContainerLogsRequest('/containerLogs/a/b/c?tailLines=5&tail=2', NOW).tailLines, 2);
    assert.equal(parseContainerLogsRequest('/containerLogs/a/b/c?tailLines=5&tail=all', NOW).tailLines, undefined);
  });

  it('refuses malformed paths and values with a message', () => {
    const refused = (url: string, message: RegExp): void => assert.throws(() => parseContainerLogsRequest(url, NOW), (e: unknown) => e instanceof ContainerLogsError && message.test(e.message));
    refused('/containerLogs/a/b', /want \/containerLogs\/\{namespace\}\/\{pod\}\/\{container\}/);
    refused('/containerLogs/a/b/c/d', /want/);
    refused('/containerLogs//b/c', /Missing podNamespace/);
    refused('/containerLogs/a//c', /Missing podID/);
    refused('/containerLogs/a/b/', /Missing container name/);
    refused('/containerLogs/a/b/c?tailLines=-1', /invalid tailLines "-1"/);
    refused('/containerLogs/a/b/c?limitBytes=0', /invalid limitBytes "0"/);
    refused('/containerLogs/a/b/c?tailLines=ten', /invalid tailLines/);
    refused('/containerLogs/a/b/c?sinceTime=yesterday', /invalid sinceTime/);
  });
});

describe('the containerLogs route', { timeout: 20_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwok-route-'));
  const appLog = join(dir, 'app.log');
  const followLog = join(dir, 'follow.log');
  let server: RunningServer;
  let base = '';
  before(async () => {
    writeFileSync(appLog, 'one\ntwo\nthree\n');
    writeFileSync(followLog, 'start\n');
    const registry = new LogsRegistry({
      logger: silentLogger,
      logs: [{ kind: 'Logs', name: 'followed', namespace: 'default', logs: [{ containers: [], logsFile: followLog, previousLogsFile: undefined, follow: true }] }],
      clusterLogs: [
        { kind: 'ClusterLogs', name: 'app', matchNamespaces: ['default'], matchNames: [], logs: [{ containers: ['app'], logsFile: appLog, previousLogsFile: join(dir, 'missing.log'), follow: false }] },
      ],
    });
    const handle = handleContainerLogs({ lookup: (ns, pod, c) => registry.lookup(ns, pod, c), logger: silentLogger });
    server = await startKwokServer({ listen: { host: '127.0.0.1', port: 0 }, renderMetrics: () => '', logger: silentLogger, routes: [{ prefix: CONTAINER_LOGS_PREFIX, handle }] });
    base = `http://127.0.0.1:${server.address.port}`;
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('returns the file, and the tail of it', async () => {
    const all = await fetch(`${base}/containerLogs/default/web/app`);
    assert.equal(all.status, 200);
    assert.equal(await all.text(), 'one\ntwo\nthree\n');
    assert.equal(await (await fetch(`${base}/containerLogs/default/web/app?tailLines=1`)).text(), 'three\n');
  });

  it('answers 400 with kubelet-style text when nothing matches or a file is missing', async () => {
    const none = await fetch(`${base}/containerLogs/other/web/app`);
    assert.equal(none.status, 400);
    assert.equal(await none.text(), 'no logs found for container "app" in pod "other/web": no Logs or ClusterLogs configures it');
    const sidecar = await fetch(`${base}/containerLogs/default/web/sidecar`);
    assert.equal(sidecar.status, 400);
    const previous = await fetch(`${base}/containerLogs/default/web/app?previous=true`);
    assert.equal(previous.status, 400);
    assert.match(await previous.text(), /^failed to open log file ".*missing\.log" for container "app" in pod "default\/web": ENOENT$/);
    const bad = await fetch(`${base}/containerLogs/default/web/app?tailLines=x`);
    assert.equal(bad.status, 400);
  });

  it('ends at the end of the file when the entry does not allow following', async () => {
    const res = await fetch(`${base}/containerLogs/default/web/app?follow=true`);
    assert.equal(await res.text(), 'one\ntwo\nthree\n');
  });

  it('streams appended lines with follow=true on a follow entry, and stops when the client goes away', async () => {
    const received: string[] = [];
    const request = http.get(`${base}/containerLogs/default/followed/any?follow=true`);
    const response = await new Promise<http.IncomingMessage>((resolve) => request.on('response', resolve));
    assert.equal(response.statusCode, 200);
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => received.push(chunk));
    const until = async (text: string): Promise<void> => {
      const deadline = Date.now() + 5000;
      while (received.join('') !== text) {
        if (Date.now() > deadline) assert.fail(`got ${JSON.stringify(received.join(''))}, want ${JSON.stringify(text)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until('start\n');
    appendFileSync(followLog, 'appended\n');
    await until('start\nappended\n');
    const closed = new Promise((resolve) => response.on('close', resolve));
    request.destroy();
    await closed;
  });
});

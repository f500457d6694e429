import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildConnection } from '../../../../src/kube/client/connection.js';
import { detectInClusterConfig } from '../../../../src/kube/kubeconfig/in-cluster.js';
import { loadKubeConfig, serviceAccountDir } from '../../../../src/kube/kubeconfig/load.js';
import { createLogger, LogLevel } from '../../../../src/util/log.js';

const root = mkdtempSync(join(tmpdir(), 'kwok-kubeconfig-'));
after(() => rmSync(root, { recursive: true, force: true }));

function kubeconfigFile(path: string, server: string, token: string): string {
  writeFileSync(
    path,
    `apiVersion: v1
kind: Config
clusters:
- cluster: {server: "${server}", insecure-skip-tls-verify: true}
  name: c
users:
- name: u
  user: {token: "${token}"}
contexts:
- context: {cluster: c, user: u}
  name: ctx
current-context: ctx
`,
  );
  return path;
}

function logs(): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  return { lines, logger: createLogger(LogLevel.DEBUG, (l) => lines.push(l)) };
}

describe('loadKubeConfig', () => {
  const home = join(root, 'home');
  mkdirSync(join(home, '.kube'), { recursive: true });
  kubeconfigFile(join(home, '.kube', 'config'), 'https://home.example:6443', 'home-token');
  const saRoot = join(root, 'sa');
  mkdirSync(join(saRoot, serviceAccountDir), { recursive: true });
  writeFileSync(join(saRoot, serviceAccountDir, 'token'), 'sa-token');
  writeFileSync(join(saRoot, serviceAccountDir, 'ca.crt'), '');
  writeFileSync(join(saRoot, serviceAccountDir, 'namespace'), 'kwok-system\n');
  const inCluster = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };

  it('uses an explicit --kubeconfig first', async () => {
    const explicit = kubeconfigFile(join(root, 'explicit'), 'https://explicit.example:6443', 'explicit-token');
    const { logger } = logs();
    const { config, origin } = loadKubeConfig({ kubeconfig: explicit, logger, env: inCluster, home, serviceAccountRoot: saRoot });
    assert.equal(origin, explicit);
    const connection = await buildConnection(config);
    assert.equal(connection.server.host, 'explicit.example:6443');
    assert.deepEqual(await connection.headers(), { Authorization: 'Bearer explicit-token' });
    assert.equal(connection.tls.rejectUnauthorized, false);
  });

  it('warns about a missing --kubeconfig and falls back to the in-cluster service account', async () => {
    const { lines, logger } = logs();
    const loaded = loadKubeConfig({ kubeconfig: join(root, 'missing'), logger, env: inCluster, home, serviceAccountRoot: saRoot });
    const { config, origin } = loaded;
    assert.equal(origin, 'in-cluster service account (https://10.96.0.1:443)');
    assert.ok(lines.some((l) => l.includes('missing or not a file')));
    assert.equal(config.server.href, 'https://10.96.0.1/');
    const connection = await buildConnection(config);
    assert.deepEqual(await connection.headers(), { Authorization: 'Bearer sa-token' });
  });

  it('in-cluster: reads the namespace, trims the token, and re-reads a rotated token after a 401', async () => {
    const { logger } = logs();
    const loaded = loadKubeConfig({ logger, env: inCluster, home, serviceAccountRoot: saRoot });
    assert.equal(loaded.inCluster?.namespace, 'kwok-system');
    assert.equal(loaded.inCluster?.tokenFile, join(saRoot, serviceAccountDir, 'token'));
    const tokenFile = loaded.inCluster!.tokenFile;
    writeFileSync(tokenFile, 'first-token\n');
    const connection = await buildConnection(loaded.config);
    assert.deepEqual(await connection.headers(), { Authorization: 'Bearer first-token' });
    writeFileSync(tokenFile, 'rotated-token\n');
    assert.deepEqual(await connection.headers(), { Authorization: 'Bearer first-token' }, 'cached until it expires or is rejected');
    connection.invalidate();
    assert.deepEqual(await connection.headers(), { Authorization: 'Bearer rotated-token' });
    writeFileSync(tokenFile, 'sa-token');
  });

  it('in-cluster: an IPv6 service host is bracketed; without the env or the token it is not in-cluster', () => {
    assert.equal(detectInClusterConfig({ KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' }, saRoot)?.server, 'https://[fd00::1]:443');
    assert.equal(detectInClusterConfig({ KUBERNETES_SERVICE_HOST: '10.96.0.1' }, saRoot), undefined);
    assert.equal(detectInClusterConfig(inCluster, join(root, 'no-secrets')), undefined);
  });

  it('falls back to ~/.kube/config outside a cluster, and --master overrides the server', () => {
    const { logger } = logs();
    assert.equal(loadKubeConfig({ logger, env: {}, home, serviceAccountRoot: saRoot }).config.server.href, 'https://home.example:6443/');
    const withMaster = loadKubeConfig({ logger, env: {}, home, master: 'http://127.0.0.1:8080' }).config;
    assert.equal(withMaster.server.href, 'http://127.0.0.1:8080/');
    assert.deepEqual(withMaster.credentials, { kind: 'token', token: 'home-token' });
  });

  it('fails when there is nothing to connect to', () => {
    const { logger } = logs();
    assert.throws(() => loadKubeConfig({ logger, env: {}, home: join(root, 'empty-home') }), /no kubeconfig/);
    const bare = loadKubeConfig({ logger, env: {}, home: join(root, 'empty-home'), master: 'http://127.0.0.1:8080' });
    assert.equal(bare.config.server.href, 'http://127.0.0.1:8080/');
  });
});

describe('buildConnection', () => {
  it('talks plain HTTP to a --master http:// URL', async () => {
    const { logger } = logs();
    const { config } = loadKubeConfig({ logger, env: {}, home: join(root, 'empty-home'), master: 'http://127.0.0.1:8080' });
    const connection = await buildConnection(config);
    assert.equal(connection.server.protocol, 'http:');
    assert.deepEqual(await connection.headers(), {});
  });
});

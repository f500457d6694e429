import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildConnection } from '../../../../src/kwok/client/connection.js';
import { loadKubeConfig, serviceAccountDir } from '../../../../src/kwok/client/kubeconfig.js';
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
    const { config, origin } = loadKubeConfig({ kubeconfig: join(root, 'missing'), logger, env: inCluster, home, serviceAccountRoot: saRoot });
    assert.equal(origin, 'in-cluster service account');
    assert.ok(lines.some((l) => l.includes('missing or not a file')));
    assert.equal(config.server.href, 'https://10.96.0.1/');
    assert.equal(config.server.port, '');
    const connection = await buildConnection(config);
    assert.deepEqual(await connection.headers(), { Authorization: 'Bearer sa-token' });
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

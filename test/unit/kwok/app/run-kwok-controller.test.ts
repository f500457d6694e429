import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runKwokController } from '../../../../src/kwok/index.js';
import { leasesResource, logsResource, nodesResource } from '../../../../src/kube/client/resources.js';
import type { KubeObject } from '../../../../src/kube/client/types.js';
import { OperationError, UsageError } from '../../../../src/util/errors.js';
import { createLogger, LogLevel } from '../../../../src/util/log.js';
import { FakeKubeClient } from '../controllers/fake-kube-client.js';
import { fakeCatalogFactory, nodeReadyStage } from '../controllers/fake-stages.js';
import { eventually, node, phaseOf } from '../controllers/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'kwok-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function config(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const stageYaml = 'apiVersion: kwok.x-k8s.io/v1alpha1\nkind: Stage\nmetadata: {name: node-initialize}\nspec: {resourceRef: {kind: Node}, selector: {}}\n';

describe('runKwokController', () => {
  it('prints usage for --help', async () => {
    let out = '';
    await runKwokController(['--help'], { stdout: (t) => (out += t) });
    assert.match(out, /--manage-all-nodes/);
    assert.match(out, /--node-lease-duration-seconds int/);
  });

  it('fails at startup without stages, or with Stage both in --enable-crds and --config', async () => {
    const empty = config('empty.yaml', 'kind: KwokConfiguration\noptions: {manageAllNodes: true}\n');
    await assert.rejects(runKwokController([`--config=${empty}`], { client: new FakeKubeClient(), catalogFactory: fakeCatalogFactory }), (e: unknown) => e instanceof UsageError && /no stages configured/.test(e.message));
    const withStage = config('stage.yaml', stageYaml);
    await assert.rejects(
      runKwokController([`--config=${withStage}`, '--manage-all-nodes', '--enable-crds=Stage'], { client: new FakeKubeClient(), catalogFactory: fakeCatalogFactory }),
      (e: unknown) => e instanceof UsageError && /--enable-crds/.test(e.message),
    );
    await assert.rejects(runKwokController([`--config=${withStage}`], { client: new FakeKubeClient() }), (e: unknown) => e instanceof UsageError && /no nodes are managed/.test(e.message));
  });

  it('runs the controllers and the server until aborted', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    const abort = new AbortController();
    const lines: string[] = [];
    let port = 0;
    const running = runKwokController([`--config=${config('run.yaml', stageYaml)}`, '--manage-all-nodes', '--server-address=127.0.0.1:0', '-v=WARN'], {
      signal: abort.signal,
      client,
      // The YAML names the stage; the scripted engine supplies its behaviour.
      catalogFactory: (docs) => fakeCatalogFactory(docs.length > 0 ? [nodeReadyStage] : []),
      logger: createLogger(LogLevel.DEBUG, (l) => lines.push(l)),
      onStarted: ({ serverAddress }) => (port = serverAddress?.port ?? 0),
    });
    await eventually(() => phaseOf(client.object(nodesResource, 'n1')) === 'Running', 'node Running');
    assert.ok(port > 0);
    assert.equal(await (await fetch(`http://127.0.0.1:${port}/healthz`)).text(), 'ok');
    abort.abort();
    await running;
    assert.ok(!lines.some((l) => l.startsWith('debug:')), '-v=WARN filters debug lines');
  });

  it('--leader-elect: a standby plays nothing until the leader releases; a leader whose Lease is taken stops with an error', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    const fast = ['--leader-elect', '--leader-elect-lease-duration=1s', '--leader-elect-renew-deadline=600ms', '--leader-elect-retry-period=200ms'];
    const run = (id: string, signal: AbortSignal) =>
      runKwokController([`--config=${config(`le-${id}.yaml`, stageYaml)}`, '--manage-all-nodes', `--id=${id}`, ...fast], {
        signal,
        client,
        catalogFactory: (docs) => fakeCatalogFactory(docs.length > 0 ? [nodeReadyStage] : []),
        logger: createLogger(LogLevel.ERROR, () => undefined),
      });
    // Someone else leads: this replica must not touch the node.
    client.seed(leasesResource, { metadata: { name: 'kwok-controller', namespace: 'kube-system' }, spec: { holderIdentity: 'other', leaseDurationSeconds: 1 } } as KubeObject);
    const keepOther = setInterval(() => client.modify(leasesResource, 'kube-system/kwok-controller', (l) => ((l['spec'] as Record<string, unknown>)['renewTime'] = new Date().toISOString())), 200);
    const abort = new AbortController();
    const running = run('me', abort.signal);
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal(phaseOf(client.object(nodesResource, 'n1')), undefined, 'the standby played nothing');
    assert.equal(client.callsOf('patch').length, 0);

    // The other leader stops renewing: this replica takes over and plays.
    clearInterval(keepOther);
    await eventually(() => phaseOf(client.object(nodesResource, 'n1')) === 'Running', 'node Running once leading', 5_000);
    assert.equal((client.object(leasesResource, 'kube-system/kwok-controller')!['spec'] as { holderIdentity: string }).holderIdentity, 'me');

    // Its Lease is taken from it: it stops acting and fails, as client-go components exit.
    client.modify(leasesResource, 'kube-system/kwok-controller', (l) => ((l['spec'] as Record<string, unknown>)['holderIdentity'] = 'usurper'));
    await assert.rejects(running, (e: unknown) => e instanceof OperationError && /^lost the leader election lease kube-system\/kwok-controller$/.test(e.message));
  });
  it('serves /containerLogs from --config ClusterLogs, or from watched custom resources with --enable-crds', async () => {
    const logFile = join(dir, 'app.log');
    writeFileSync(logFile, 'hello from the config\n');
    const clusterLogs = `kind: ClusterLogs\nmetadata: {name: all}\nspec:\n  logs:\n  - logsFile: ${logFile}\n`;
    const serve = async (args: string[], client: FakeKubeClient, check: (base: string) => Promise<void>): Promise<void> => {
      const abort = new AbortController();
      let port = 0;
      const running = runKwokController([`--config=${config('logs-stage.yaml', stageYaml)}`, '--manage-all-nodes', '--server-address=127.0.0.1:0', ...args], {
        signal: abort.signal,
        client,
        catalogFactory: (docs) => fakeCatalogFactory(docs.length > 0 ? [nodeReadyStage] : []),
        logger: createLogger(LogLevel.ERROR, () => undefined),
        onStarted: ({ serverAddress }) => (port = serverAddress?.port ?? 0),
      });
      await eventually(() => port > 0, 'the server');
      try {
        await check(`http://127.0.0.1:${port}`);
      } finally {
        abort.abort();
        await running;
      }
    };
    await serve([`--config=${config('cluster-logs.yaml', clusterLogs)}`], new FakeKubeClient(), async (base) => {
      assert.equal(await (await fetch(`${base}/containerLogs/default/any-pod/any-container`)).text(), 'hello from the config\n');
    });

    const client = new FakeKubeClient();
    await serve(['--enable-crds=Logs,ClusterLogs'], client, async (base) => {
      const lookup = (): Promise<Response> => fetch(`${base}/containerLogs/shop/web-0/app`);
      assert.equal((await lookup()).status, 400, 'nothing configured yet');
      client.seed(logsResource, { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Logs', metadata: { name: 'web-0', namespace: 'shop' }, spec: { logs: [{ logsFile: logFile }] } } as KubeObject);
      for (let tries = 0; (await lookup()).status !== 200; tries++) {
        if (tries > 100) assert.fail('the Logs custom resource was not served');
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(await (await lookup()).text(), 'hello from the config\n');
    });
  });

  it('refuses Logs both in --enable-crds and in --config', async () => {
    const logs = config('own-logs.yaml', `${stageYaml}---\nkind: Logs\nmetadata: {name: p, namespace: d}\nspec: {logs: []}\n`);
    await assert.rejects(
      runKwokController([`--config=${logs}`, '--manage-all-nodes', '--enable-crds=Logs'], { client: new FakeKubeClient(), catalogFactory: (docs) => fakeCatalogFactory(docs.length > 0 ? [nodeReadyStage] : []) }),
      (e: unknown) => e instanceof UsageError && e.message === 'Logs is in --enable-crds and Logs documents are also in --config',
    );
  });

  it('refuses ClusterExec both in --enable-crds and in --config', async () => {
    const execs = config('own-execs.yaml', `${stageYaml}---\nkind: ClusterExec\nmetadata: {name: all}\nspec: {execs: [{local: {}}]}\n`);
    await assert.rejects(
      runKwokController([`--config=${execs}`, '--manage-all-nodes', '--enable-crds=Exec,ClusterExec'], { client: new FakeKubeClient(), catalogFactory: (docs) => fakeCatalogFactory(docs.length > 0 ? [nodeReadyStage] : []) }),
      (e: unknown) => e instanceof UsageError && e.message === 'ClusterExec is in --enable-crds and ClusterExec documents are also in --config',
    );
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runKwokController } from '../../../../src/kwok/index.js';
import { nodesResource } from '../../../../src/kwok/client/resources.js';
import { UsageError } from '../../../../src/util/errors.js';
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
});

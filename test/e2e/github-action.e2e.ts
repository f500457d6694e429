/**
 * The GitHub Action (action.yaml) end to end, without GitHub: its main and post entries run as the
 * runner runs them — inputs as INPUT_<NAME>, the GITHUB_ENV/PATH/OUTPUT/STATE files, state handed
 * back to the post step as STATE_<name> — against a real cluster.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildConnection } from '../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../src/kube/client/http-client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig/load.js';
import { nodesResource } from '../../src/kube/client/resources.js';
import { silentLogger } from '../../src/util/log.js';
import { isAlive, kwokts, recordedPids, requireBinaries, ROOT, sandbox, type Sandbox, failure } from './harness.js';

interface Runner {
  dir: string;
  files: { env: string; path: string; output: string; state: string };
}

function runner(): Runner {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-runner-'));
  const files = { env: join(dir, 'env'), path: join(dir, 'path'), output: join(dir, 'output'), state: join(dir, 'state') };
  for (const file of Object.values(files)) writeFileSync(file, '');
  return { dir, files };
}

/** name=value lines of a runner file, as the runner reads them. */
function entries(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

async function step(box: Sandbox, run: Runner, entry: 'main' | 'post', inputs: Record<string, string>, state: Record<string, string> = {}, runnerEnv: Record<string, string> = {}) {
  const env: Record<string, string> = {
    ...box.env,
    ...runnerEnv,
    RUNNER_TEMP: run.dir,
    GITHUB_ENV: run.files.env,
    GITHUB_PATH: run.files.path,
    GITHUB_OUTPUT: run.files.output,
    GITHUB_STATE: run.files.state,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value;
  const result = await execa('node', [join(ROOT, 'scripts', 'action', `${entry}.mjs`)], { env: { ...process.env, ...env }, reject: false, timeout: 300_000 });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

describe('GitHub Action: install, create --wait, export the kubeconfig, delete at the end', () => {
  let box: Sandbox;
  const runners: Runner[] = [];
  before(() => {
    requireBinaries();
    box = sandbox();
  });
  after(async () => {
    await kwokts(box, ['delete', 'cluster', '--all']);
    box.cleanup();
    for (const r of runners) rmSync(r.dir, { recursive: true, force: true });
  });

  test('action.yaml declares the Node entries and the inputs run.sh reads', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yaml'), 'utf8')) as { inputs: Record<string, unknown>; runs: Record<string, string> };
    assert.equal(action.runs['main'], 'scripts/action/main.mjs');
    assert.equal(action.runs['post'], 'scripts/action/post.mjs');
    assert.equal(action.runs['post-if'], 'always()');
    const script = readFileSync(join(ROOT, 'scripts', 'action', 'run.sh'), 'utf8');
    const read = [...script.matchAll(/input ([A-Z-]+)/g)].map((m) => m[1]!.toLowerCase());
    assert.deepEqual([...new Set(read)].sort(), Object.keys(action.inputs).sort());
  });

  test('bad input fails the step with one error and leaves nothing behind', async () => {
    const run = runner();
    runners.push(run);
    const r = await step(box, run, 'main', { 'cluster-name': 'gha-bad', wait: 'soon' });
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, /^error: .*soon.*$/m);
    assert.equal(entries(run.files.state)['cluster'], undefined, 'no cluster for the post step to delete');
    assert.equal((await kwokts(box, ['get', 'clusters'])).stdout.trim(), '');
    const post = await step(box, run, 'post', {}, entries(run.files.state));
    assert.equal(post.exitCode, 0, failure(post));
    assert.match(post.stderr, /nothing to delete/);
  });

  test('kwokts-version installs from the action\'s own repository, never an npm package name, and refuses a non-ref', async () => {
    const run = runner();
    runners.push(run);
    const outside = await step(box, run, 'main', { 'kwokts-version': '0.1.0', 'create-cluster': 'false' });
    assert.equal(outside.exitCode, 2, outside.stderr);
    assert.match(outside.stderr, /^error: kwokts-version needs GITHUB_ACTION_REPOSITORY/m);
    const weird = await step(box, run, 'main', { 'kwokts-version': 'v1; rm -rf ~', 'create-cluster': 'false' }, {}, { GITHUB_ACTION_REPOSITORY: 'someone/kwokts' });
    assert.equal(weird.exitCode, 2, weird.stderr);
    assert.match(weird.stderr, /^error: kwokts-version "v1; rm -rf ~" is not a git ref$/m);
    assert.doesNotMatch(readFileSync(join(ROOT, 'scripts', 'action', 'run.sh'), 'utf8'), /npm install[^\n]*"kwokts@/, 'no install by registry name');
  });

  test('binaries are cached in the runner\'s tool cache, exported for later steps, unless KWOK_CACHE_DIR is set', async () => {
    const run = runner();
    runners.push(run);
    const toolCache = join(run.dir, 'tool-cache');
    const { KWOK_CACHE_DIR: _cache, ...rest } = box.env;
    const r = await step({ ...box, env: rest }, run, 'main', { 'create-cluster': 'false' }, {}, { RUNNER_TOOL_CACHE: toolCache, KWOK_CACHE_DIR: '' });
    assert.equal(r.exitCode, 0, failure(r));
    assert.equal(entries(run.files.env)['KWOK_CACHE_DIR'], join(toolCache, 'kwokts'));
    assert.equal(entries(run.files.output)['cache-dir'], join(toolCache, 'kwokts'));
  });

  test('main creates a ready cluster and exports its kubeconfig; post deletes it', async () => {
    const run = runner();
    runners.push(run);
    const main = await step(box, run, 'main', { 'cluster-name': 'gha', wait: '2m', args: '--disable kwok-controller' });
    assert.equal(main.exitCode, 0, failure(main));

    const outputs = entries(run.files.output);
    const kubeconfig = outputs['kubeconfig']!;
    assert.equal(outputs['cluster-name'], 'gha');
    assert.equal(entries(run.files.env)['KUBECONFIG'], kubeconfig);
    assert.equal(statSync(kubeconfig).mode & 0o777, 0o600);
    const bin = readFileSync(run.files.path, 'utf8').trim();
    const version = await execa(join(bin, 'kwokts'), ['--version'], { reject: false });
    assert.match(String(version.stdout), /^kwokts\/\d+\.\d+\.\d+/, 'the kwokts put on PATH runs');

    // The exported kubeconfig alone reaches the cluster, ready.
    const { config } = loadKubeConfig({ kubeconfig, logger: silentLogger });
    const client = new HttpKubeClient(await buildConnection(config));
    try {
      const nodes = await client.list(nodesResource);
      assert.deepEqual(nodes.items, []);
    } finally {
      client.close();
    }
    assert.match((await kwokts(box, ['get', 'clusters', '-o', 'wide'])).stdout, /^gha\s.*Ready/m);
    const pids = recordedPids(box.workdir);
    assert.ok(pids.length >= 3);

    const post = await step(box, run, 'post', {}, entries(run.files.state));
    assert.equal(post.exitCode, 0, failure(post));
    assert.equal((await kwokts(box, ['get', 'clusters'])).stdout.trim(), '');
    assert.deepEqual(pids.filter(isAlive), [], 'no component left running');
  });
});

/** The docker runtime against a dockerd of the tests' own (test/engines/docker.sh). */
import { test } from 'node:test';
import { execa } from 'execa';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { containerRuntimeSuite, leftovers } from './container-runtime-scenario.js';
import { freePort, jaegerServices, kwokts, ROOT, sandbox, unbuiltReason, waitFor, failure } from './harness.js';
import { startEngine } from '../engines/start-engine.js';
import { goBuiltAddon, goKwokBinary, TEST_GO_KWOK_IMAGE } from '../engines/images.js';

containerRuntimeSuite('docker');

test("nerdctl's CLI engine, run for real through a nerdctl that is docker's CLI: create, kubectl, stop, start, delete", async () => {
  const under = await startEngine('docker');
  const box = sandbox();
  const name = 'e2e-nerdctl-cli';
  const env = { ...box.env, ...under.env, KWOK_RUNTIME: 'nerdctl', PATH: `${join(ROOT, 'test', 'e2e', 'doubles', 'nerdctl-via-docker')}:${process.env.PATH ?? ''}` };
  const run = (args: string[]) => kwokts({ ...box, env }, ['--name', name, ...args]);
  try {
    const created = await run(['create', 'cluster', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    const ns = await run(['kubectl', 'get', 'ns', 'kube-system', '-o', 'name']);
    assert.equal(ns.stdout.trim(), 'namespace/kube-system');
    const logs = await run(['logs', 'kube-apiserver']);
    assert.equal(logs.exitCode, 0, failure(logs));
    assert.ok(logs.stdout.length > 0);
    assert.equal((await run(['stop', 'cluster'])).exitCode, 0);
    const components = JSON.parse((await run(['get', 'components', '-o', 'json'])).stdout) as Array<{ state: string }>;
    assert.ok(components.every((c) => c.state === 'stopped'));
    const started = await run(['start', 'cluster', '--wait', '2m']);
    assert.equal(started.exitCode, 0, failure(started));
    assert.equal((await run(['delete', 'cluster'])).exitCode, 0);
    assert.deepEqual(await leftovers(under, name), []);
    assert.ok(!existsSync(join(box.workdir, 'clusters', name)));
  } finally {
    await run(['delete', 'cluster']);
    box.cleanup();
  }
});

test("--kwok-controller-image naming Go kwok's image (as kwokctl users and kwok's own docker e2e pass it): it runs as the controller and plays nodes and pods", { skip: goKwokBinary() ? false : 'no Go kwok binary (go install sigs.k8s.io/kwok/cmd/kwok@v0.8.0, or KWOK_BINARY) to put in an image' }, async () => {
  const under = await startEngine('docker');
  const box = sandbox();
  const name = 'e2e-go-kwok-image';
  const env = { ...box.env, ...under.env };
  const run = (args: string[]) => kwokts({ ...box, env }, ['--name', name, ...args]);
  try {
    // Go's kwok stops at a flag it does not know: every flag kwokts gives the controller must be one of its.
    const created = await run(['create', 'cluster', '--runtime', 'docker', `--kwok-controller-image=${TEST_GO_KWOK_IMAGE}`, '--wait', '3m']);
    assert.equal(created.exitCode, 0, failure(created));
    const inspected = await execa('docker', ['inspect', '--format', '{{.Config.Image}}', `kwok-${name}-kwok-controller`], { env: { ...process.env, ...under.env }, reject: false });
    assert.equal(String(inspected.stdout).trim(), TEST_GO_KWOK_IMAGE);
    assert.equal((await run(['scale', 'node', 'fake', '--replicas', '1'])).exitCode, 0);
    assert.equal((await run(['scale', 'pod', 'fake-pod', '--replicas', '1'])).exitCode, 0);
    // kubectl wait watches; the deadline is generous for a loaded machine.
    const ready = await run(['kubectl', 'wait', '--for=condition=Ready', 'node/fake-000000', '--timeout=240s']);
    assert.equal(ready.exitCode, 0, failure(ready));
    const running = await run(['kubectl', 'wait', '--for=jsonpath={.status.phase}=Running', 'pod/fake-pod-000000', '--timeout=240s']);
    assert.equal(running.exitCode, 0, failure(running));
    const logs = await run(['logs', 'kwok-controller']);
    assert.match(logs.stdout + logs.stderr, /sigs\.k8s\.io\/kwok/, 'the controller that ran is Go kwok');
    assert.equal((await run(['delete', 'cluster'])).exitCode, 0);
    assert.deepEqual(await leftovers(under, name), []);
  } finally {
    await run(['delete', 'cluster']);
    box.cleanup();
  }
});

test("jaeger in a container from an image laid out as jaegertracing/all-in-one (FROM scratch, its own entrypoint): the apiserver's and etcd's traces reach it", { timeout: 3_600_000, skip: unbuiltReason('jaeger') }, async () => {
  const box = sandbox();
  const name = 'e2e-jaeger';
  try {
    // Built from its Go module when not cached yet; the engine's images are made after, so the jaeger image is among them.
    if (!existsSync(goBuiltAddon('jaeger'))) {
      const built = await kwokts(box, ['artifacts', 'build', 'jaeger'], { timeoutMs: 3_000_000 });
      assert.equal(built.exitCode, 0, failure(built));
    }
    const under = await startEngine('docker');
    const env = { ...box.env, ...under.env };
    const run = (args: string[]) => kwokts({ ...box, env }, ['--name', name, ...args]);
    const port = await freePort();
    const created = await run(['create', 'cluster', '--runtime', 'docker', '--jaeger-port', String(port), '--wait', '3m']);
    assert.equal(created.exitCode, 0, failure(created));
    await run(['kubectl', 'get', 'ns']);
    await waitFor('jaeger lists the apiserver and etcd', async () => {
      const listed = await jaegerServices(port);
      return (listed.includes('apiserver') || listed.includes('kube-apiserver')) && listed.includes('etcd');
    }, 300_000, 3000);
    assert.equal((await run(['delete', 'cluster'])).exitCode, 0);
    assert.deepEqual(await leftovers(under, name), []);
  } finally {
    await kwokts(box, ['--name', name, 'delete', 'cluster']);
    box.cleanup();
  }
});

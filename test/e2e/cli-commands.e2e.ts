/**
 * kwokctl's non-create command semantics on a real cluster (binary runtime): `--wait 0` returns
 * once kube-apiserver serves without waiting for the rest (kwokctl), while the default waits for
 * every component, and names the command that was run in its closing hint; `snapshot export
 * --as/--as-group/--page-size`; `delete cluster --force` when the runtime's engine is gone.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INVOKED, kwokts, requireBinaries, sandbox, waitFor, type Sandbox, failure } from './harness.js';

const NAME = 'gr-cmds';
// kube-scheduler refuses an unknown flag and exits at once: a component that never gets ready.
const BROKEN_SCHEDULER = ['--extra-args', 'kube-scheduler=gr-no-such-flag=1'];

describe('non-create commands on a real cluster', { timeout: 900_000 }, () => {
  let box: Sandbox;
  before(() => {
    requireBinaries();
    box = sandbox();
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster', '--force']);
    await kwokts(box, ['--name', `${NAME}-default`, 'delete', 'cluster']);
    box.cleanup();
  });

  test('create without --wait waits for every component: a scheduler that exits fails the create, which is rolled back', async () => {
    const r = await kwokts(box, ['--name', `${NAME}-default`, 'create', 'cluster', ...BROKEN_SCHEDULER]);
    assert.equal(r.exitCode, 1, r.stderr);
    assert.match(r.stderr, /kube-scheduler exited during start-up/);
    assert.equal(existsSync(join(box.workdir, 'clusters', `${NAME}-default`)), false, 'rolled back');
  });

  test('create --timeout: past the deadline the create is rolled back and exits 5', async () => {
    const r = await kwokts(box, ['--name', `${NAME}-timeout`, 'create', 'cluster', '--timeout', '1ms']);
    assert.equal(r.exitCode, 5, r.stderr);
    assert.match(r.stderr, /^error: create cluster did not finish within --timeout 1ms$/m);
    assert.equal(existsSync(join(box.workdir, 'clusters', `${NAME}-timeout`)), false, 'rolled back');
  });

  test('create --wait 0 returns once kube-apiserver serves, without waiting for the scheduler (kwokctl)', async () => {
    const r = await kwokts(box, ['--name', NAME, 'create', 'cluster', '--wait', '0', ...BROKEN_SCHEDULER]);
    assert.equal(r.exitCode, 0, failure(r));
    assert.match(r.stderr, /kube-apiserver serves/);
    // The closing hint names the command that was run (`node bin/run.cjs` here), which works when pasted.
    assert.ok(r.stderr.split('\n').includes(`You can now use it: ${INVOKED} --name ${NAME} kubectl get ns`), r.stderr);
    const ns = await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'ns', 'default', '-o', 'name']);
    assert.equal(ns.stdout.trim(), 'namespace/default', ns.stderr);
    const state = async () => {
      const out = await kwokts(box, ['--name', NAME, 'get', 'components', '-o', 'json']);
      const list = JSON.parse(out.stdout) as Array<{ name: string; state: string }>;
      return list.find((c) => c.name === 'kube-scheduler')?.state;
    };
    await waitFor('kube-scheduler shown as exited', async () => (await state()) === 'exited');
  });

  test('snapshot export impersonates with --as/--as-group and pages with --page-size', async () => {
    const kubeconfig = join(box.workdir, '..', 'gr.kubeconfig');
    writeFileSync(kubeconfig, (await kwokts(box, ['--name', NAME, 'get', 'kubeconfig'])).stdout, { mode: 0o600 });
    const path = (n: string) => join(box.workdir, '..', `gr-export-${n}.yaml`);
    const base = ['--name', NAME, 'snapshot', 'export', '--kubeconfig', kubeconfig, '--filter', 'namespace,configmap'];
    // kube-controller-manager publishes kube-root-ca.crt into each namespace after the namespace
    // exists: the two exports compared below must not straddle one of those.
    await waitFor('kube-root-ca.crt in every namespace', async () => {
      const namespaces = (await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'namespaces', '-o', 'name'])).stdout.trim().split('\n').filter(Boolean);
      const published = (await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'configmaps', '-A', '--field-selector', 'metadata.name=kube-root-ca.crt', '-o', 'name'])).stdout.trim().split('\n').filter(Boolean);
      return namespaces.length > 0 && published.length === namespaces.length;
    });
    // A user without RBAC rights may not list: the impersonation really happens.
    const denied = await kwokts(box, [...base, '--path', path('denied'), '--as', 'gr-nobody']);
    assert.equal(denied.exitCode, 1, denied.stderr);
    assert.match(denied.stderr, /forbidden/i);
    assert.equal(existsSync(path('denied')), false);
    const allowed = await kwokts(box, [...base, '--path', path('allowed'), '--as', 'gr-nobody', '--as-group', 'system:masters']);
    assert.equal(allowed.exitCode, 0, failure(allowed));
    const paged = await kwokts(box, [...base, '--path', path('paged'), '--page-size', '1', '--page-buffer-size', '3']);
    assert.equal(paged.exitCode, 0, failure(paged));
    assert.match(paged.stderr, /--page-buffer-size 3 has no effect/);
    assert.equal(readFileSync(path('paged'), 'utf8'), readFileSync(path('allowed'), 'utf8'));
    assert.match(readFileSync(path('paged'), 'utf8'), /name: kube-root-ca\.crt/);
  });

  test('delete cluster --force removes a cluster whose runtime is gone; without it the error stands', async () => {
    const stop = await kwokts(box, ['--name', NAME, 'stop', 'cluster']);
    assert.equal(stop.exitCode, 0, failure(stop));
    // Pretend the cluster was made with nerdctl, which this machine does not have.
    const record = join(box.workdir, 'clusters', NAME, 'kwok.yaml');
    const text = readFileSync(record, 'utf8');
    assert.match(text, /^\s+runtime: binary$/m);
    writeFileSync(record, text.replace(/^(\s+)runtime: binary$/m, '$1runtime: nerdctl'));
    const env = { PATH: '/usr/bin:/bin' };
    const refused = await kwokts({ ...box, env: { ...box.env, ...env } }, ['--name', NAME, 'delete', 'cluster']);
    assert.notEqual(refused.exitCode, 0);
    assert.match(refused.stderr, /nerdctl/);
    assert.ok(existsSync(record), 'kept without --force');
    const forced = await kwokts({ ...box, env: { ...box.env, ...env } }, ['--name', NAME, 'delete', 'cluster', '--force']);
    assert.equal(forced.exitCode, 0, failure(forced));
    assert.match(forced.stderr, /--force: removing its files and kubeconfig context anyway/);
    assert.equal(existsSync(join(box.workdir, 'clusters', NAME)), false);
    assert.doesNotMatch(readFileSync(box.kubeconfig, 'utf8'), new RegExp(`kwok-${NAME}`));
  });
});

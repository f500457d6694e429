import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContainerRuntime, componentState, hostAddress } from '../../../../runtimes/container/container-runtime.js';
import { macFor } from '../../../../runtimes/container/operations.js';
import { DOCKER } from '../../../../runtimes/docker.js';
import { PODMAN } from '../../../../runtimes/podman.js';
import { NERDCTL } from '../../../../runtimes/nerdctl.js';
import type { ContainerDialect } from '../../../../runtimes/container/dialect.js';
import type { RuntimeContext } from '../../../../runtimes/runtime.js';
import { buildComponents, networkPlacement } from '../../../../src/components/index.js';
import { clusterPaths } from '../../../../src/naming/naming.js';
import { defaultOptionValues } from '../../../../src/config/options.js';
import { resolveImages } from '../../../../src/artifacts/images.js';
import { DryRunExecutor } from '../../../../src/exec/dry-run-executor.js';
import { RealExecutor } from '../../../../src/exec/real-executor.js';
import { ExternalCommandError, PreflightError } from '../../../../src/util/errors.js';
import { silentLogger } from '../../../../src/util/log.js';
import { sampleSpec } from '../../components/sample-spec.js';
import { FakeEngine } from './fake-engine.js';

function components() {
  const spec = sampleSpec({
    components: ['etcd', 'kube-apiserver', 'kwok-controller'],
    placement: networkPlacement('c1'),
    images: resolveImages(defaultOptionValues(), 'v1.36.1', 'v3.6.10'),
  });
  return buildComponents(spec);
}

function setup(dialect: ContainerDialect = DOCKER, dryRun = false) {
  const engine = new FakeEngine();
  const lines: string[] = [];
  // Each printed command on one line (dry-run lays engine commands out one word per line, as kwokctl does).
  const executor = dryRun ? new DryRunExecutor((t) => lines.push(t.replace(/ \\\n {2}/g, ' '))) : new RealExecutor(silentLogger);
  const runtime = new ContainerRuntime(dialect, async () => engine);
  const ctx: RuntimeContext = { cluster: 'c1', paths: clusterPaths('/w', 'c1'), executor, logger: silentLogger, programs: new Map(), quietPull: true };
  return { engine, runtime, ctx, lines };
}

test('start: network once, pull only missing images, create and start each component in order', async () => {
  const { engine, runtime, ctx } = setup();
  engine.images.add('registry.k8s.io/etcd:3.6.10-0');
  const cs = components();
  ctx.clusterComponents = cs;
  await runtime.start(cs.slice(0, 1), ctx);
  await runtime.start(cs.slice(1), ctx);
  const apiserver = engine.applied.find((o) => o.op === 'create' && o.spec.name === 'kwok-c1-kube-apiserver');
  assert.deepEqual(apiserver?.op === 'create' && apiserver.spec.links, ['kwok-c1-etcd'], 'a link to a component started in an earlier group');
  assert.deepEqual(engine.applied.map((o) => `${o.op} ${'name' in o ? o.name : 'image' in o ? o.image : o.spec.name}`), [
    'network-create kwok-c1',
    'create kwok-c1-etcd',
    'start kwok-c1-etcd',
    'pull registry.k8s.io/kube-apiserver:v1.36.1',
    'create kwok-c1-kube-apiserver',
    'start kwok-c1-kube-apiserver',
    'pull ghcr.io/kwokts/kwok:v0.1.0',
    'create kwok-c1-kwok-controller',
    'start kwok-c1-kwok-controller',
  ]);
  assert.deepEqual((await runtime.status(cs, ctx)).map((s) => s.state), ['running', 'running', 'running']);
});

test('start again skips running containers; stop keeps them; start brings back stopped ones without re-creating', async () => {
  const { engine, runtime, ctx } = setup();
  const cs = components();
  await runtime.start(cs, ctx);
  const before = engine.applied.length;
  await runtime.start(cs, ctx);
  assert.equal(engine.applied.length, before);
  await runtime.stop(cs, ctx, { graceMs: 5000 });
  const stops = engine.applied.slice(before);
  // Dependents first: the controller before the apiserver before etcd.
  assert.deepEqual(stops.map((o) => (o.op === 'stop' ? `${o.name} t=${o.timeoutSeconds}` : o.op)), ['kwok-c1-kwok-controller t=5', 'kwok-c1-kube-apiserver t=5', 'kwok-c1-etcd t=5']);
  assert.deepEqual((await runtime.status(cs, ctx)).map((s) => s.state), ['stopped', 'stopped', 'stopped']);
  const mark = engine.applied.length;
  await runtime.start(cs, ctx);
  assert.deepEqual(engine.applied.slice(mark).map((o) => o.op), ['start', 'start', 'start']);
});

test('remove: every labelled container, then the network', async () => {
  const { engine, runtime, ctx } = setup();
  await runtime.start(components(), ctx);
  engine.containers.set('someone-else', { id: 'x', status: 'running', exitCode: 0, labels: {}, network: 'bridge' });
  await runtime.remove(ctx);
  assert.deepEqual([...engine.containers.keys()], ['someone-else']);
  assert.equal(engine.networks.size, 0);
});

test("a network or container of the cluster's name that is not the cluster's is refused, not used", async () => {
  const { engine, runtime, ctx } = setup();
  engine.networks.set('kwok-c1', { name: 'kwok-c1', labels: {} });
  await assert.rejects(runtime.check(ctx), (e: unknown) => e instanceof PreflightError && /docker network kwok-c1 already exists and does not belong to cluster c1/.test(e.message) && /docker network rm kwok-c1/.test(e.hint ?? ''));
  const other = setup(PODMAN);
  other.engine.containers.set('kwok-c1-etcd', { id: 'x', status: 'running', exitCode: 0, labels: {}, network: 'x' });
  await assert.rejects(other.runtime.start(components(), other.ctx), /a podman container named kwok-c1-etcd exists and does not belong to cluster c1/);
  assert.ok(!other.engine.applied.some((o) => o.op === 'create' || o.op === 'start'));
});

test("a create refuses containers left by an earlier cluster of the same name (its record gone): named, not removed, not adopted", async () => {
  const { engine, runtime, ctx } = setup();
  await runtime.start(components(), ctx);
  const applied = engine.applied.length;
  // A fresh runtime, as a later create would have: the earlier cluster's containers still carry the label.
  const again = new ContainerRuntime(DOCKER, async () => engine);
  await assert.rejects(again.check(ctx), (e: unknown) =>
    e instanceof PreflightError &&
    /^docker still has containers of an earlier cluster named c1 that kwokts has no record of: kwok-c1-etcd, kwok-c1-kube-apiserver, kwok-c1-kwok-controller$/.test(e.message) &&
    /docker rm -f kwok-c1-etcd kwok-c1-kube-apiserver kwok-c1-kwok-controller/.test(e.hint ?? ''));
  assert.equal(engine.containers.size, 3);
  assert.equal(engine.applied.length, applied);
  // A network alone (its containers removed by hand) is no obstacle: it is reused.
  for (const n of [...engine.containers.keys()]) engine.containers.delete(n);
  await again.check(ctx);
});

test('an image that cannot be pulled: PreflightError naming image, component and the flag', async () => {
  const { engine, runtime, ctx } = setup();
  engine.pullFails = true;
  await assert.rejects(runtime.start(components(), ctx), (e: unknown) =>
    e instanceof PreflightError && /image registry.k8s.io\/etcd:3.6.10-0 of etcd is not present and could not be pulled: no route to registry/.test(e.message) && /--etcd-image/.test(e.hint ?? ''));
});

test('dry-run prints each engine command line, in the dialect of the engine', async () => {
  for (const [dialect, link] of [[DOCKER, '--link=kwok-c1-etcd'], [PODMAN, '--requires=kwok-c1-etcd'], [NERDCTL, undefined]] as const) {
    const { engine, runtime, ctx, lines } = setup(dialect, true);
    await runtime.start(components(), ctx);
    assert.equal(engine.applied.length, 0, 'dry-run performs nothing');
    const cli = dialect.cli;
    assert.equal(lines[0], `${cli} network create --label=io.kwokts.cluster=c1 --label=com.docker.compose.project=kwok-c1${dialect === PODMAN ? ' --label=io.podman.compose.project=kwok-c1' : ''} kwok-c1`);
    assert.equal(lines[1], `${cli} pull registry.k8s.io/etcd:3.6.10-0`);
    const apiserver = lines.find((l) => l.startsWith(`${cli} create --name=kwok-c1-kube-apiserver`))!;
    assert.ok(apiserver.includes('--publish=127.0.0.1:2003:6443/tcp'), apiserver);
    assert.ok(apiserver.includes('--volume=/w/clusters/c1/pki:/w/clusters/c1/pki:ro'), apiserver);
    assert.ok(apiserver.includes(' --entrypoint=kube-apiserver ') && apiserver.includes(' registry.k8s.io/kube-apiserver:v1.36.1 --etcd-prefix=/registry '), apiserver);
    assert.ok(apiserver.includes('--etcd-servers=https://kwok-c1-etcd:2379'), apiserver);
    const etcd = lines.find((l) => l.startsWith(`${cli} create --name=kwok-c1-etcd`))!;
    assert.ok(etcd.includes('--volume=/w/clusters/c1/pki/etcd:/w/clusters/c1/pki/etcd:ro'), etcd);
    assert.ok(etcd.includes('--publish=127.0.0.1:2008:2381/tcp'), etcd);
    assert.equal(link === undefined ? !/--link|--requires/.test(apiserver) : apiserver.includes(link), true, apiserver);
    const controller = lines.find((l) => l.startsWith(`${cli} create --name=kwok-c1-kwok-controller`))!;
    assert.ok(!controller.includes('--entrypoint'), 'the controller image runs its own entrypoint');
    assert.ok(controller.includes('ghcr.io/kwokts/kwok:v0.1.0 --manage-all-nodes=true --kubeconfig=/w/clusters/c1/kubeconfig '), controller);
    assert.deepEqual(lines.filter((l) => / start /.test(l)), ['etcd', 'kube-apiserver', 'kwok-controller'].map((c) => `${cli} start kwok-c1-${c}`));
  }
});

test("dry-run lays engine commands out as kwokctl does: one word per line, pulls on one line", async () => {
  const printed: string[] = [];
  const engine = new FakeEngine();
  const runtime = new ContainerRuntime(DOCKER, async () => engine);
  const ctx: RuntimeContext = { cluster: 'c1', paths: clusterPaths('/w', 'c1'), executor: new DryRunExecutor((t) => printed.push(t)), logger: silentLogger, programs: new Map(), quietPull: true };
  await runtime.start(components().slice(0, 1), ctx);
  assert.equal(printed[1], 'docker pull registry.k8s.io/etcd:3.6.10-0');
  assert.equal(printed.at(-1), 'docker \\\n  start \\\n  kwok-c1-etcd');
});

test('stop asks a group\'s containers to stop in list order, groups in reverse start order, at once (--time=0, as kwokctl)', async () => {
  const { engine, runtime, ctx, lines } = setup(DOCKER, true);
  const cs = components();
  for (const c of cs) engine.containers.set(`kwok-c1-${c.name}`, { id: c.name, status: 'running', exitCode: 0, labels: { 'io.kwokts.cluster': 'c1' }, network: 'kwok-c1' });
  await runtime.stop(cs, ctx);
  assert.deepEqual(lines, ['kwok-controller', 'kube-apiserver', 'etcd'].map((c) => `docker stop kwok-c1-${c} --time=0`));
});

test('dry-run delete prints the removal of the network even with nothing to find', async () => {
  const { runtime, ctx, lines } = setup(DOCKER, true);
  await runtime.remove(ctx);
  assert.deepEqual(lines, ['docker network rm kwok-c1']);
});

test('component state: a restart loop is a crash; exited is stopped (kcm exits 2 on SIGTERM)', () => {
  assert.equal(componentState({ id: 'a', status: 'running', exitCode: 0, labels: {} }), 'running');
  assert.equal(componentState({ id: 'a', status: 'restarting', exitCode: 1, labels: {} }), 'exited');
  assert.equal(componentState({ id: 'a', status: 'exited', exitCode: 2, labels: {} }), 'stopped');
  assert.equal(componentState({ id: 'a', status: 'created', exitCode: 0, labels: {} }), 'stopped');
});

test('logs come from the engine', async () => {
  const { runtime, ctx } = setup();
  let text = '';
  const { Writable } = await import('node:stream');
  const out = new Writable({ write(chunk: Buffer, _e, done) { text += chunk.toString(); done(); } });
  await runtime.logs('etcd', ctx, out, { follow: false });
  assert.equal(text, 'log of kwok-c1-etcd\n');
});

test("the engine's refusal becomes one error naming the command, not a crash", async () => {
  const { engine, runtime, ctx } = setup();
  engine.refuse = 'start';
  await assert.rejects(runtime.start(components(), ctx), (e: unknown) =>
    e instanceof ExternalCommandError && e.message === 'docker start kwok-c1-etcd failed: (HTTP code 500) server error - OCI permission denied' && e.exitCode === 1);
});

test('an engine that stops answering mid-command: one PreflightError, not an internal error', async () => {
  const { engine, runtime, ctx } = setup(PODMAN);
  engine.inspectContainer = async () => {
    throw new Error('connect ECONNREFUSED /run/podman/podman.sock\nstack');
  };
  await assert.rejects(runtime.status(components(), ctx), (e: unknown) => e instanceof PreflightError && e.message === 'podman failed to answer: connect ECONNREFUSED /run/podman/podman.sock');
});

test('a network without DNS fails the start with one error saying what to install, before any container exists', async () => {
  const { engine, runtime, ctx } = setup(PODMAN);
  engine.networkDns = false;
  await assert.rejects(runtime.start(components(), ctx), (error: unknown) => {
    assert.ok(error instanceof PreflightError);
    assert.match(error.message, /^podman network kwok-c1 has no DNS/);
    assert.match(error.hint ?? '', /aardvark-dns/);
    return true;
  });
  assert.deepEqual(engine.applied.map((o) => o.op), ['network-create']);
  assert.equal(engine.containers.size, 0);
});

test('a network with DNS (or an engine that does not say) starts as before', async () => {
  for (const dns of [true, undefined]) {
    const { engine, runtime, ctx } = setup(PODMAN);
    engine.networkDns = dns;
    await runtime.start(components(), ctx);
    assert.equal(engine.containers.size, 3);
  }
});

test("prometheus runs as the owner of the cluster's files: the host uid:gid under a rootful engine, 0:0 under a rootless one; the others keep their image's user", async () => {
  const spec = sampleSpec({
    components: ['etcd', 'kube-apiserver', 'kwok-controller', 'prometheus'],
    ports: { ...sampleSpec().ports, prometheus: 2009 },
    placement: networkPlacement('c1'),
    images: resolveImages(defaultOptionValues(), 'v1.36.1', 'v3.6.10'),
  });
  const cs = buildComponents(spec);
  const users = async (rootless: boolean, dryRun = false): Promise<{ users: Record<string, string | undefined>; lines: string[] }> => {
    const { engine, runtime, ctx, lines } = setup(DOCKER, dryRun);
    engine.isRootless = rootless;
    ctx.clusterComponents = cs;
    await runtime.start(cs, ctx);
    const created = engine.applied.flatMap((o) => (o.op === 'create' ? [[o.spec.name.replace('kwok-c1-', ''), o.spec.user] as const] : []));
    return { users: Object.fromEntries(created), lines };
  };
  const host = `${process.getuid!()}:${process.getgid!()}`;
  assert.deepEqual((await users(false)).users, { etcd: undefined, 'kube-apiserver': undefined, 'kwok-controller': undefined, prometheus: host });
  assert.equal((await users(true)).users['prometheus'], '0:0');
  const { lines } = await users(false, true);
  assert.match(lines.find((l) => l.includes('--name=kwok-c1-prometheus')) ?? '', new RegExp(` --user=${host} `), lines.join('\n'));
  assert.doesNotMatch(lines.find((l) => l.includes('--name=kwok-c1-etcd')) ?? '', /--user=/);
});

test("rootless is read from info's SecurityOptions (docker and podman list name=rootless, possibly with other fields)", async () => {
  const { isRootless } = await import('../../../../runtimes/container/api-engine.js');
  assert.equal(isRootless(['name=seccomp,profile=builtin', 'name=rootless']), true);
  assert.equal(isRootless(['name=seccomp,profile=builtin', 'name=cgroupns']), false);
  assert.equal(isRootless(null), false);
});

test('nerdctl pins each container to an address of the network (by its place in the cluster), docker does not', async () => {
  assert.equal(hostAddress('10.4.1.0/24', 2), '10.4.1.2');
  assert.equal(hostAddress('10.4.1.0/24', 255), undefined);
  assert.equal(hostAddress('172.16.0.0/12', 300), '172.16.1.44');
  assert.equal(macFor('10.4.1.2'), '02:42:0a:04:01:02');
  for (const dialect of [NERDCTL, DOCKER]) {
    const { engine, runtime, ctx } = setup(dialect);
    engine.networks.set('kwok-c1', { name: 'kwok-c1', labels: { 'io.kwokts.cluster': 'c1' }, subnet: '10.4.7.0/24' });
    const cs = components();
    ctx.clusterComponents = cs;
    // Started in two groups, as create does: the address follows the cluster's order, not the group's.
    await runtime.start(cs.slice(0, 1), ctx);
    await runtime.start(cs.slice(1), ctx);
    const ips = engine.applied.flatMap((op) => (op.op === 'create' ? [op.spec.ip] : []));
    assert.deepEqual(ips, dialect === NERDCTL ? ['10.4.7.2', '10.4.7.3', '10.4.7.4'] : [undefined, undefined, undefined]);
  }
});

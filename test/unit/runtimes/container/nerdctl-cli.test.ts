/**
 * nerdctl is not installable here (its Go module is refused by the proxy), so the nerdctl dialect
 * is held to nerdctl's own CLI as read from its source (github.com/containerd/nerdctl, commit
 * 8da5040 of 2026-08-22, after v2.3.5): every flag kwokts passes is one that subcommand declares in
 * cmd/nerdctl/**, and the reads parse output shaped like nerdctl's (pkg/inspecttypes/dockercompat:
 * Container.State.{Status,Running,Restarting,ExitCode}, Config.Labels, Network.{Name,Labels},
 * Info.SecurityOptions with "name=rootless" when rootless; `ps` rows' .Names, `network ls`/`volume ls`
 * rows' .Name), answered by a recording stand-in `nerdctl` on PATH.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerRuntime } from '../../../../runtimes/container/container-runtime.js';
import { CliEngine } from '../../../../runtimes/container/cli-engine.js';
import { NERDCTL } from '../../../../runtimes/nerdctl.js';
import type { RuntimeContext } from '../../../../runtimes/runtime.js';
import { buildComponents, networkPlacement } from '../../../../src/components/index.js';
import { clusterPaths } from '../../../../src/naming/naming.js';
import { defaultOptionValues } from '../../../../src/config/options.js';
import { resolveImages } from '../../../../src/artifacts/images.js';
import { DryRunExecutor } from '../../../../src/exec/dry-run-executor.js';
import { silentLogger } from '../../../../src/util/log.js';
import { sampleSpec } from '../../components/sample-spec.js';
import { FakeEngine } from './fake-engine.js';

/** The flags each nerdctl subcommand declares (cmd/nerdctl/<group>/<file>.go), for those kwokts uses. */
const NERDCTL_FLAGS: Record<string, string[]> = {
  // container_run.go + container_run_network.go (create shares run's flags)
  create: ['name', 'pull', 'entrypoint', 'workdir', 'user', 'network', 'net', 'ip', 'mac-address', 'restart', 'label', 'publish', 'volume', 'env'],
  start: [],
  stop: ['time', 'signal'],
  rm: ['force', 'volumes'],
  pull: [],
  logs: ['follow', 'since', 'until', 'tail', 'timestamps', 'details'],
  ps: ['all', 'filter', 'format', 'quiet', 'no-trunc', 'size', 'last', 'latest'],
  info: ['format', 'mode'],
  'container inspect': ['format', 'mode', 'size'],
  'image inspect': ['format', 'mode', 'platform'],
  'network create': ['label', 'driver', 'subnet', 'gateway', 'ip-range', 'ipam-driver', 'ipam-opt', 'opt', 'internal', 'aux-address'],
  'network inspect': ['format', 'mode'],
  'network ls': ['filter', 'format', 'quiet'],
  'network rm': [],
  'volume ls': ['filter', 'format', 'quiet', 'size'],
  'volume rm': [],
};
const RESTART_POLICIES = ['no', 'always', 'on-failure', 'unless-stopped'];
const PULL_POLICIES = ['always', 'missing', 'never'];

/** `[subcommand, flags]` of one argv (flags as `--name` or `--name=value`, up to the image). */
function parse(argv: string[]): { sub: string; flags: Array<[string, string | undefined]> } {
  const two = `${argv[0]} ${argv[1]}`;
  const sub = two in NERDCTL_FLAGS ? two : argv[0]!;
  const rest = argv.slice(sub.split(' ').length);
  const flags: Array<[string, string | undefined]> = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (!a.startsWith('--')) {
      if (sub === 'create') break; // the image: what follows is the container's command
      continue;
    }
    const [name, value] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    // `--filter label=…`, `--format TEMPLATE`: the value is the next word.
    if (value === undefined && ['filter', 'format'].includes(name)) flags.push([name, rest[++i]]);
    else flags.push([name, value]);
  }
  return { sub, flags };
}

function assertNerdctlAccepts(argv: string[]): void {
  const { sub, flags } = parse(argv);
  const known = NERDCTL_FLAGS[sub];
  assert.ok(known, `nerdctl has no subcommand "${sub}" that kwokts knows of: ${argv.join(' ')}`);
  for (const [name, value] of flags) {
    assert.ok(known.includes(name), `nerdctl ${sub} declares no --${name}: ${argv.join(' ')}`);
    if (name === 'restart') assert.ok(RESTART_POLICIES.includes(value!), value);
    if (name === 'pull') assert.ok(PULL_POLICIES.includes(value!), value);
    if (name === 'publish') assert.match(value!, /^127\.0\.0\.1:\d+:\d+\/tcp$/);
  }
}

test('every command line kwokts gives nerdctl (create a cluster with prometheus, stop, delete) uses only flags nerdctl declares', async () => {
  const spec = sampleSpec({
    components: ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'prometheus'],
    ports: { ...sampleSpec().ports, prometheus: 2009 },
    placement: networkPlacement('c1'),
    images: resolveImages(defaultOptionValues(), 'v1.36.1', 'v3.6.10'),
  });
  const cs = buildComponents(spec);
  const lines: string[] = [];
  const engine = new FakeEngine();
  const runtime = new ContainerRuntime(NERDCTL, async () => engine);
  const ctx: RuntimeContext = { cluster: 'c1', paths: clusterPaths('/w', 'c1'), executor: new DryRunExecutor((t) => lines.push(t)), logger: silentLogger, programs: new Map(), quietPull: true, clusterComponents: cs };
  await runtime.start(cs, ctx);
  await runtime.remove(ctx);
  const { renderArgs } = await import('../../../../runtimes/container/operations.js');
  // One word per line in dry-run (kwokctl's layout): the lines are the argv.
  const argvs = [...lines.map((l) => l.split(/ \\\n {2}| /).slice(1)), renderArgs({ op: 'stop', name: 'kwok-c1-etcd', timeoutSeconds: 10 }, NERDCTL), renderArgs({ op: 'volume-rm', name: 'v' }, NERDCTL)];
  assert.ok(argvs.some((a) => a[0] === 'create' && a.includes('--user=' + `${process.getuid!()}:${process.getgid!()}`)), 'prometheus runs as the files\' owner');
  for (const argv of argvs) assertNerdctlAccepts(argv);
});

test("the CLI engine's reads use only nerdctl's flags and parse nerdctl's output shapes", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-nerdctl-'));
  const log = join(dir, 'argv.log');
  // Answers shaped like nerdctl's dockercompat output (one JSON object per item under --format '{{json .}}').
  writeFileSync(join(dir, 'nerdctl'), `#!/bin/sh
printf '%s\\n' "$*" >> '${log}'
case "$*" in
  "info --format {{json .ServerVersion}}") echo '"v2.0.0"' ;;
  "info --format {{json .SecurityOptions}}") echo '["name=apparmor","name=seccomp,profile=builtin","name=rootless","name=cgroupns"]' ;;
  "container inspect --format {{json .}} kwok-c1-etcd") echo '{"Id":"0123456789abcdef0123","Name":"kwok-c1-etcd","State":{"Status":"running","Running":true,"Paused":false,"Restarting":true,"Pid":42,"ExitCode":0,"Error":"","StartedAt":"","FinishedAt":""},"Config":{"Labels":{"io.kwokts.cluster":"c1"}}}' ;;
  "container inspect --format {{json .}} kwok-c1-stopped") echo '{"Id":"1123456789abcdef0123","Name":"kwok-c1-stopped","State":{"Status":"exited","Running":false,"Paused":false,"Restarting":true,"Pid":0,"ExitCode":137,"Error":"","StartedAt":"","FinishedAt":""},"Config":{"Labels":{"io.kwokts.cluster":"c1"}}}' ;;
  "container inspect --format {{json .}} kwok-c1-crashed") echo '{"Id":"2123456789abcdef0123","Name":"kwok-c1-crashed","State":{"Status":"restarting","Running":false,"Paused":false,"Restarting":true,"Pid":0,"ExitCode":137,"Error":"","StartedAt":"","FinishedAt":""},"Config":{"Labels":{"io.kwokts.cluster":"c1"}}}' ;;
  "container inspect --format {{json .}} kwok-c1-between") echo '{"Id":"3123456789abcdef0123","Name":"kwok-c1-between","State":{"Status":"","Running":false,"Paused":false,"Restarting":true,"Pid":0,"ExitCode":0,"Error":"","StartedAt":"","FinishedAt":""},"Config":{"Labels":{"io.kwokts.cluster":"c1"}}}' ;;
  "container inspect --format {{json .}} kwok-c1-created") echo '{"Id":"4123456789abcdef0123","Name":"kwok-c1-created","State":{"Status":"","Running":false,"Paused":false,"Restarting":false,"Pid":0,"ExitCode":0,"Error":"","StartedAt":"","FinishedAt":""},"Config":{"Labels":{"io.kwokts.cluster":"c1"}}}' ;;
  "network inspect --format {{json .}} kwok-c1") echo '{"Name":"kwok-c1","Id":"abc","IPAM":{},"Labels":{"io.kwokts.cluster":"c1"},"Containers":{}}' ;;
  "ps --all --filter label=io.kwokts.cluster=c1 --format {{.Names}}") printf 'kwok-c1-etcd\\nkwok-c1-kube-apiserver\\n' ;;
  "network ls --filter label=io.kwokts.cluster=c1 --format {{.Name}}") echo kwok-c1 ;;
  "volume ls --filter label=io.kwokts.cluster=c1 --format {{.Name}}") ;;
  "image inspect registry.k8s.io/etcd:3.6.10-0") echo '[{}]' ;;
  *) echo "no such object" >&2; exit 1 ;;
esac
`);
  chmodSync(join(dir, 'nerdctl'), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${dir}:${path ?? ''}`;
  try {
    const engine = new CliEngine(NERDCTL, NERDCTL.hints);
    await engine.ping();
    assert.equal(await engine.rootless(), true);
    assert.deepEqual(await engine.inspectContainer('kwok-c1-etcd'), { id: '0123456789ab', status: 'running', exitCode: 0, labels: { 'io.kwokts.cluster': 'c1' } });
    assert.equal(await engine.inspectContainer('kwok-c1-missing'), undefined);
    // nerdctl 2.3.5's State (seen from a real containerd): Restarting is true for every started
    // container with a restart policy, so Status is what tells running, stopped and crash-looping apart.
    assert.equal((await engine.inspectContainer('kwok-c1-stopped'))?.status, 'exited');
    assert.equal((await engine.inspectContainer('kwok-c1-crashed'))?.status, 'restarting');
    assert.equal((await engine.inspectContainer('kwok-c1-between'))?.status, 'restarting');
    assert.equal((await engine.inspectContainer('kwok-c1-created'))?.status, 'created');
    assert.deepEqual(await engine.inspectNetwork('kwok-c1'), { name: 'kwok-c1', labels: { 'io.kwokts.cluster': 'c1' } });
    assert.deepEqual(await engine.listByLabel('container', 'io.kwokts.cluster', 'c1'), ['kwok-c1-etcd', 'kwok-c1-kube-apiserver']);
    assert.deepEqual(await engine.listByLabel('network', 'io.kwokts.cluster', 'c1'), ['kwok-c1']);
    assert.deepEqual(await engine.listByLabel('volume', 'io.kwokts.cluster', 'c1'), []);
    assert.equal(await engine.imageExists('registry.k8s.io/etcd:3.6.10-0'), true);
    assert.equal(await engine.imageExists('registry.k8s.io/missing:v0'), false);
    const argvs = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' '));
    assert.ok(argvs.length >= 13);
    for (const argv of argvs) assertNerdctlAccepts(argv);
  } finally {
    process.env.PATH = path;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a pinned address and its MAC are flags nerdctl create declares', async () => {
  const { renderArgs } = await import('../../../../runtimes/container/operations.js');
  const spec = { name: 'kwok-c1-etcd', image: 'i', entrypoint: [], args: [], env: {}, network: 'kwok-c1', labels: {}, ports: [], mounts: [], links: [], ip: '10.4.1.2' };
  const argv = renderArgs({ op: 'create', spec }, NERDCTL);
  assert.ok(argv.includes('--ip=10.4.1.2') && argv.includes('--mac-address=02:42:0a:04:01:02'));
  assertNerdctlAccepts(argv);
});

/**
 * kwokctl compatibility on real clusters: a self-contained `get kubeconfig` used by real kubectl
 * from another directory, kwokctl's scale node shape (untainted, dual-stack) running a plain
 * Deployment, and a workdir shared with Go kwokctl v0.8.0 in both directions (listing, stop,
 * start, delete, and byte-equal `-o wide` output). The kwokctl cases need Go kwokctl and kwok
 * v0.8.0 (test/peers.ts says where they are looked for); without them they print `skip:` and are skipped
 * (the record format itself is unit-tested with a fixture: test/unit/cluster/record.test.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, kwokts, requireBinaries, sandbox, waitFor, type Sandbox, failure } from './harness.js';
import { peerBinary } from '../peers.js';

const KWOKCTL = peerBinary('kwokctl');
const KWOK = peerBinary('kwok');
const kwokctlMissing = !existsSync(KWOKCTL) || !existsSync(KWOK) ? `skip: kwokctl or kwok not found (${KWOKCTL}, ${KWOK}); set KWOKCTL_BINARY and KWOK_BINARY` : false;
if (kwokctlMissing) process.stderr.write(`${kwokctlMissing}\n`);

async function ok(box: Sandbox, args: string[], input?: string): Promise<string> {
  const result = await kwokts(box, args, input === undefined ? {} : { input });
  assert.equal(result.exitCode, 0, `kwokts ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

async function kwokctl(box: Sandbox, args: string[], env: Record<string, string> = {}): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const result = await execa(KWOKCTL, args, { env: { ...process.env, ...box.env, ...env }, reject: false, timeout: 300_000 });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Paths of our cached binaries, for kwokctl (which would download them otherwise). */
async function cachedBinaries(box: Sandbox): Promise<Record<string, string>> {
  const plan = JSON.parse(await ok(box, ['get', 'artifacts', '-o', 'json'])) as Array<{ name: string; path: string }>;
  return Object.fromEntries(plan.map((p) => [p.name, p.path]));
}

/** Pids in a cluster's pid files (kwokctl's format: the bare number). */
function pidsOf(workdir: string, cluster: string): number[] {
  const dir = join(workdir, 'clusters', cluster, 'pids');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((f) => Number(readFileSync(join(dir, f), 'utf8').trim())).filter((n) => n > 0);
}

describe('compat: get artifacts', { skip: kwokctlMissing }, () => {
  test("kwokctl's list: sorted, one per line, every binary kwokctl lists but kwok's own", async () => {
    const box = sandbox();
    try {
      const env = { KWOK_KUBE_APISERVER_BINARY: '/opt/kube-apiserver' };
      const theirs = (await kwokctl(box, ['get', 'artifacts', '--runtime', 'binary'], env)).stdout.split('\n');
      const result = await kwokts({ ...box, env: { ...box.env, ...env } }, ['get', 'artifacts']);
      assert.equal(result.exitCode, 0, failure(result));
      const ours = result.stdout.split('\n');
      assert.deepEqual(ours, [...ours].sort());
      assert.ok(ours.includes('/opt/kube-apiserver'));
      // kwok's release binary and metrics-server have no counterpart here (the controller is embedded).
      const kwokOnly = (line: string): boolean => /kubernetes-sigs\/(kwok|metrics-server)\//.test(line);
      for (const line of theirs.filter((l) => !kwokOnly(l))) assert.ok(ours.includes(line), `kwokctl lists ${line}; kwokts does not:\n${ours.join('\n')}`);
    } finally {
      box.cleanup();
    }
  });
});

describe('compat: a kwokts cluster', { timeout: 900_000 }, () => {
  const NAME = 'co-a';
  let box: Sandbox;
  let other: string;
  before(async () => {
    requireBinaries();
    box = sandbox();
    other = mkdtempSync(join(tmpdir(), 'co-elsewhere-'));
    await ok(box, ['--name', NAME, 'create', 'cluster', '--wait', '2m']);
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
    rmSync(other, { recursive: true, force: true });
  });

  /** Real kubectl with a kubeconfig printed by `get kubeconfig`, run from an unrelated directory. */
  async function kubectlWith(config: string, args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    const file = join(other, `kubeconfig-${Math.random().toString(36).slice(2)}`);
    writeFileSync(file, config, { mode: 0o600 });
    const kubectl = (await cachedBinaries(box)).kubectl!;
    const result = await execa(kubectl, ['--kubeconfig', file, ...args], { cwd: other, reject: false, env: { PATH: process.env.PATH ?? '' } });
    return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
  }

  test('get kubeconfig is self-contained: kubectl uses it from another directory', async () => {
    const config = await ok(box, ['--name', NAME, 'get', 'kubeconfig']);
    assert.doesNotMatch(config, /certificate-authority:|client-certificate:|client-key:|\/pki\//, 'no file references');
    assert.match(config, /certificate-authority-data: /);
    assert.match(config, /client-certificate-data: /);
    const result = await kubectlWith(config, ['get', 'ns', 'default', '-o', 'name']);
    assert.equal(result.exitCode, 0, failure(result));
    assert.equal(result.stdout.trim(), 'namespace/default');
  });

  test('get kubeconfig --host, --insecure-skip-tls-verify, --user/--group', async () => {
    const port = /server: https:\/\/127\.0\.0\.1:(\d+)/.exec(await ok(box, ['--name', NAME, 'get', 'kubeconfig']))?.[1];
    assert.ok(port);
    const local = await ok(box, ['--name', NAME, 'get', 'kubeconfig', '--host', 'localhost']);
    assert.match(local, new RegExp(`server: https://localhost:${port}\\n`));
    assert.equal((await kubectlWith(local, ['get', 'ns', 'default', '-o', 'name'])).exitCode, 0);

    const insecure = await ok(box, ['--name', NAME, 'get', 'kubeconfig', '--insecure-skip-tls-verify', '--host', `127.0.0.1:${port}`]);
    assert.match(insecure, /insecure-skip-tls-verify: true/);
    assert.doesNotMatch(insecure, /certificate-authority/);
    const viaInsecure = await kubectlWith(insecure, ['get', 'ns', 'default', '-o', 'name']);
    assert.equal(viaInsecure.exitCode, 0, failure(viaInsecure));

    const alice = await ok(box, ['--name', NAME, 'get', 'kubeconfig', '--user', 'alice', '--group', 'devs,qa']);
    const who = await kubectlWith(alice, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}']);
    assert.equal(who.exitCode, 0, failure(who));
    assert.match(who.stdout, /^alice \[.*"devs".*"qa".*\]/);
    // Only --group: kwokctl keeps the default user.
    const admins = await ok(box, ['--name', NAME, 'get', 'kubeconfig', '--group', 'ops']);
    const who2 = await kubectlWith(admins, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}']);
    assert.match(who2.stdout, /^kwok-admin \[.*"ops".*\]/);
  });

  test("scale node: kwokctl's dual-stack, untainted nodes become Ready and run a plain Deployment's pods", async () => {
    await ok(box, ['--name', NAME, 'scale', 'node', '--replicas', '2']);
    await waitFor('2 scaled nodes Ready', async () => {
      const out = await ok(box, ['--name', NAME, 'kubectl', 'get', 'nodes', '-l', 'kwok.x-k8s.io/kwokctl-scale=node', '-o', 'jsonpath={range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\\n"}{end}']);
      return out.trim().split('\n').filter((s) => s === 'True').length === 2;
    }, 180_000, 1000);
    const node = JSON.parse(await ok(box, ['--name', NAME, 'kubectl', 'get', 'node', 'node-000000', '-o', 'json'])) as {
      spec: { taints?: unknown[]; podCIDRs: string[] };
      status: { addresses: Array<{ type: string; address: string }>; nodeInfo: { kubeletVersion: string } };
    };
    assert.equal(node.spec.taints, undefined);
    assert.equal(node.spec.podCIDRs.length, 2);
    assert.deepEqual(node.status.addresses.filter((a) => a.type === 'InternalIP').map((a) => a.address), ['192.0.2.1', '2001:db8::1']);
    assert.equal(node.status.nodeInfo.kubeletVersion, 'kwok-0.8.0');

    // A plain Deployment: no tolerations, no node selector.
    await ok(box, ['--name', NAME, 'kubectl', 'create', 'deployment', 'plain', '--image=busybox', '--replicas=2']);
    await waitFor('2 pods of a plain Deployment Running on scaled nodes', async () => {
      const out = await ok(box, ['--name', NAME, 'kubectl', 'get', 'pods', '-l', 'app=plain', '-o', 'jsonpath={range .items[*]}{.status.phase} {.spec.nodeName} {.status.hostIPs[*].ip}{"\\n"}{end}']);
      const rows = out.trim().split('\n').filter(Boolean).map((l) => l.split(' '));
      return rows.length === 2 && rows.every(([phase, nodeName]) => phase === 'Running' && /^node-00000[01]$/.test(nodeName ?? ''));
    }, 180_000, 1000);
    const hostIPs = (await ok(box, ['--name', NAME, 'kubectl', 'get', 'pods', '-l', 'app=plain', '-o', 'jsonpath={.items[0].status.hostIPs[*].ip}'])).trim().split(' ');
    assert.equal(hostIPs.length, 2, `a pod on a dual-stack node gets both host IPs: ${hostIPs.join(' ')}`);
  });

  test('-o wide is kwokctl\'s table', async () => {
    assert.equal(await ok(box, ['get', 'clusters', '-o', 'wide']), `NAME   READY   STATUS\n${NAME}   5/5     Ready`);
    const components = await ok(box, ['--name', NAME, 'get', 'components', '-o', 'wide']);
    assert.match(components, /^NAME\s+STATUS(\n\S+\s+Ready){5}$/);
  });

  test('kwokctl reads it: same listing byte for byte, then stops, starts and deletes it', { skip: kwokctlMissing }, async () => {
    const ours = await ok(box, ['get', 'clusters', '-o', 'wide']);
    const theirs = await kwokctl(box, ['get', 'clusters', '-o', 'wide']);
    assert.equal(theirs.exitCode, 0, failure(theirs));
    assert.equal(theirs.stdout, ours);
    const theirComponents = await kwokctl(box, ['--name', NAME, 'get', 'components', '-o', 'wide']);
    assert.equal(theirComponents.stdout, await ok(box, ['--name', NAME, 'get', 'components', '-o', 'wide']));
    assert.equal((await kwokctl(box, ['--name', NAME, 'get', 'components'])).stdout, await ok(box, ['--name', NAME, 'get', 'components']));

    const pids = pidsOf(box.workdir, NAME);
    assert.equal(pids.length, 5);
    const stop = await kwokctl(box, ['--name', NAME, 'stop', 'cluster']);
    assert.equal(stop.exitCode, 0, failure(stop));
    for (const pid of pids) await waitFor(`pid ${pid} gone after kwokctl stop`, () => !isAlive(pid), 30_000);
    assert.equal(await ok(box, ['get', 'clusters', '-o', 'wide']), `NAME   READY   STATUS\n${NAME}   0/5     Stopped`);

    const start = await kwokctl(box, ['--name', NAME, 'start', 'cluster']);
    assert.equal(start.exitCode, 0, failure(start));
    await waitFor('Ready after kwokctl start', async () => (await ok(box, ['get', 'clusters', '-o', 'wide'])).includes(`${NAME}   5/5     Ready`), 120_000, 1000);
    // The objects survived, and the controller kwokctl started runs our stages.
    await waitFor('the plain Deployment Running again', async () => {
      const out = await ok(box, ['--name', NAME, 'kubectl', 'get', 'pods', '-l', 'app=plain', '-o', 'jsonpath={.items[*].status.phase}']);
      return out.trim() === 'Running Running';
    }, 120_000, 1000);

    const running = pidsOf(box.workdir, NAME);
    const del = await kwokctl(box, ['--name', NAME, 'delete', 'cluster', '--kubeconfig', box.kubeconfig]);
    assert.equal(del.exitCode, 0, failure(del));
    assert.equal(existsSync(join(box.workdir, 'clusters', NAME)), false);
    for (const pid of running) await waitFor(`pid ${pid} gone after kwokctl delete`, () => !isAlive(pid), 30_000);
    assert.equal(await ok(box, ['get', 'clusters']), '');
  });
});

describe('compat: a kwokctl cluster, handled by kwokts', { timeout: 900_000, skip: kwokctlMissing }, () => {
  const NAME = 'co-b';
  let box: Sandbox;
  before(async () => {
    requireBinaries();
    box = sandbox();
    const bin = await cachedBinaries(box);
    const created = await kwokctl(box, [
      '--name', NAME, 'create', 'cluster', '--runtime', 'binary', '--wait', '2m',
      `--kube-apiserver-binary=${bin['kube-apiserver']}`,
      `--kube-controller-manager-binary=${bin['kube-controller-manager']}`,
      `--kube-scheduler-binary=${bin['kube-scheduler']}`,
      `--etcd-binary=${bin.etcd}`,
      `--kwok-controller-binary=${KWOK}`,
      '--kubeconfig', box.kubeconfig,
      // kwokctl has no flag for kubectl's binary, only the variable.
    ], { KWOK_KUBECTL_BINARY: bin.kubectl! });
    assert.equal(created.exitCode, 0, failure(created));
  });
  after(async () => {
    await kwokctl(box, ['--name', NAME, 'delete', 'cluster', '--kubeconfig', box.kubeconfig]);
    box.cleanup();
  });

  test('listed by both tools alike, byte for byte', async () => {
    const theirs = await kwokctl(box, ['get', 'clusters', '-o', 'wide']);
    assert.equal(await ok(box, ['get', 'clusters', '-o', 'wide']), theirs.stdout);
    assert.match(theirs.stdout, new RegExp(`^${NAME}\\s+\\d/\\d\\s+Ready$`, 'm'));
    assert.equal(await ok(box, ['--name', NAME, 'get', 'components', '-o', 'wide']), (await kwokctl(box, ['--name', NAME, 'get', 'components', '-o', 'wide'])).stdout);
    assert.equal(await ok(box, ['--name', NAME, 'get', 'components']), (await kwokctl(box, ['--name', NAME, 'get', 'components'])).stdout);
  });

  test('kwokts kubectl and get kubeconfig work on it', async () => {
    assert.equal((await ok(box, ['--name', NAME, 'kubectl', 'get', 'ns', 'default', '-o', 'name'])).trim(), 'namespace/default');
    const theirs = await kwokctl(box, ['--name', NAME, 'get', 'kubeconfig']);
    assert.equal(theirs.exitCode, 0, failure(theirs));
    assert.equal(await ok(box, ['--name', NAME, 'get', 'kubeconfig']), theirs.stdout);
  });

  test('kwokts stops and starts it; kwokctl agrees', async () => {
    const pids = pidsOf(box.workdir, NAME);
    assert.ok(pids.length >= 5, `pids: ${pids.join(' ')}`);
    await ok(box, ['--name', NAME, 'stop', 'cluster']);
    for (const pid of pids) assert.equal(isAlive(pid), false, `pid ${pid} alive after kwokts stop`);
    const stopped = await kwokctl(box, ['get', 'clusters', '-o', 'wide']);
    assert.match(stopped.stdout, new RegExp(`^${NAME}\\s+0/\\d\\s+Stopped$`, 'm'));

    await ok(box, ['--name', NAME, 'start', 'cluster', '--wait', '2m']);
    await waitFor('kwokctl sees it Ready', async () => new RegExp(`^${NAME}\\s+(\\d)/\\1\\s+Ready$`, 'm').test((await kwokctl(box, ['get', 'clusters', '-o', 'wide'])).stdout), 120_000, 1000);
  });

  test('kwokts deletes it: processes and directory gone', async () => {
    const pids = pidsOf(box.workdir, NAME);
    await ok(box, ['--name', NAME, 'delete', 'cluster']);
    for (const pid of pids) assert.equal(isAlive(pid), false, `pid ${pid} alive after kwokts delete`);
    assert.equal(existsSync(join(box.workdir, 'clusters', NAME)), false);
    assert.equal((await kwokctl(box, ['get', 'clusters'])).stdout, '');
  });
});

/**
 * Controller shards (--shard) against a real etcd + kube-apiserver: three shards share 30 nodes,
 * each node leased by exactly one of them; one shard is killed with SIGKILL and a watch on the
 * node leases shows every one of its nodes taken over by a surviving shard before the lease ran
 * out (the new renewTime is within the old lease's duration), pods on those nodes are still played
 * by the new owner, and no pod IP changes. Then a fourth shard joins and takes nodes over the same
 * way. Last, a `--shards 2` controller is killed (SIGTERM, then SIGKILL at once, as `delete cluster`
 * does when the stop is slow) and its child shard must end by itself.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildConnection } from '../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../src/kube/client/http-client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig/load.js';
import { leasesResource, nodesResource, podsResource } from '../../src/kube/client/resources.js';
import type { KubeObject } from '../../src/kube/client/types.js';
import { shardLabel } from '../../src/kwok/controllers/shard-membership.js';
import { silentLogger } from '../../src/util/log.js';
import { findControlPlaneBinaries, startControlPlane } from './kwok-controller-cluster.js';
import type { ControlPlane } from './kwok-controller-cluster.js';
import { defaultStageYaml } from './kwok-controller-stages.js';

const binaries = findControlPlaneBinaries();
const skip = typeof binaries === 'string' ? binaries : false;
if (skip) process.stdout.write(`skip: ${skip}\n`);

const NODES = 30;
const LEASE_SECONDS = 40;
const nodeName = (i: number): string => `shard-node-${i}`;

let plane: ControlPlane;
let client: HttpKubeClient;
const shards = new Map<string, { child: ChildProcess; log: string }>();

interface LeaseSpec {
  holderIdentity?: string;
  renewTime?: string;
  leaseDurationSeconds?: number;
}

function startShard(id: string, index: number, shardFlag = '--shard'): void {
  const stagesFile = join(plane.dir, 'stages.yaml');
  writeFileSync(stagesFile, defaultStageYaml().yaml);
  const log = join(plane.dir, `${id}.log`);
  const fd = openSync(log, 'a');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'kwok-controller-run.ts'),
      `--kubeconfig=${plane.kubeconfig}`,
      `--config=${stagesFile}`,
      '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
      `--node-lease-duration-seconds=${LEASE_SECONDS}`,
      '--server-address=127.0.0.1:0',
      // Pods here have no podCIDR on their node: each shard gets its own range so IPs stay unique.
      `--cidr=10.${index}.0.1/16`,
      shardFlag,
      '--shard-lease-duration=6s',
      '--shard-retry-period=1s',
      `--id=${id}`,
    ],
    { stdio: ['ignore', fd, fd] },
  );
  shards.set(id, { child, log });
}

function logs(): string {
  return [...shards].map(([id, { log }]) => `--- ${id}\n${readFileSync(log, 'utf8').slice(-1500)}`).join('\n');
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; shard logs:\n${logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function ready(node: KubeObject): boolean {
  const conditions = (node['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

async function nodeLeases(): Promise<Map<string, LeaseSpec>> {
  const list = await client.list(leasesResource, { namespace: 'kube-node-lease' });
  return new Map(list.items.filter((l) => !l.metadata.labels?.[shardLabel]).map((l) => [l.metadata.name ?? '', (l['spec'] as LeaseSpec) ?? {}]));
}

async function podIps(): Promise<Map<string, string> | undefined> {
  const pods = (await client.list(podsResource, { namespace: 'default' })).items;
  if (pods.some((p) => (p['status'] as { phase?: string }).phase !== 'Running')) return undefined;
  return new Map(pods.map((p) => [p.metadata.name ?? '', (p['status'] as { podIP?: string }).podIP ?? '']));
}

async function createPod(name: string, node: string): Promise<void> {
  await client.create(podsResource, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'fake-image' }], tolerations: [{ key: 'kwok.x-k8s.io/node', operator: 'Exists', effect: 'NoSchedule' }] },
  });
}

/**
 * Watches the node leases from now on and records, per node, every (holder, renewTime) seen, so a
 * test can check that each change of holder came before the previous holder's lease ran out.
 */
function recordLeases(resourceVersion: string, signal: AbortSignal): Map<string, LeaseSpec[]> {
  const history = new Map<string, LeaseSpec[]>();
  void (async () => {
    try {
      for await (const event of client.watch(leasesResource, { namespace: 'kube-node-lease', resourceVersion }, signal)) {
        if (event.type !== 'ADDED' && event.type !== 'MODIFIED') continue;
        if (event.object.metadata.labels?.[shardLabel]) continue;
        const name = event.object.metadata.name ?? '';
        history.set(name, [...(history.get(name) ?? []), (event.object['spec'] as LeaseSpec) ?? {}]);
      }
    } catch {
      // the watch ends with the test
    }
  })();
  return history;
}

/** Every change of holder in `seen` happened while the previous holder's lease was still valid. */
function handedOverInTime(before: LeaseSpec, seen: readonly LeaseSpec[]): string | undefined {
  let previous = before;
  for (const spec of seen) {
    if (spec.holderIdentity !== previous.holderIdentity) {
      const expires = Date.parse(previous.renewTime ?? '') + (previous.leaseDurationSeconds ?? 0) * 1000;
      const taken = Date.parse(spec.renewTime ?? '');
      if (!(taken <= expires)) return `${previous.holderIdentity} → ${spec.holderIdentity}: renewed at ${spec.renewTime}, after the lease ran out at ${new Date(expires).toISOString()}`;
    }
    previous = spec;
  }
  return undefined;
}

describe('kwok controller shards against a real API server', { skip, timeout: 900_000 }, () => {
  before(async () => {
    if (typeof binaries === 'string') return;
    plane = await startControlPlane(binaries, { withControllers: false });
    const { config } = loadKubeConfig({ kubeconfig: plane.kubeconfig, logger: silentLogger });
    client = new HttpKubeClient(await buildConnection(config));
  });

  after(async () => {
    for (const { child } of shards.values()) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all([...shards.values()].map(({ child }) => (child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : undefined)));
    client?.close();
    await plane?.stop();
  });

  it('three shards lease every node exactly once, make them Ready and run their pods', async () => {
    for (let i = 0; i < NODES; i++) {
      await client.create(nodesResource, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: nodeName(i), annotations: { 'kwok.x-k8s.io/node': 'fake' } },
        spec: { taints: [{ key: 'kwok.x-k8s.io/node', value: 'fake', effect: 'NoSchedule' }] },
      });
    }
    for (let i = 0; i < 3; i++) startShard(`shard-${i}`, i);
    await eventually('all nodes Ready', async () => {
      const nodes = (await client.list(nodesResource)).items;
      return nodes.length === NODES && nodes.every(ready) ? true : undefined;
    });
    // The first shard up may lease everything before the others join; then nodes move to them.
    const leases = await eventually('every node leased by a shard, and each shard holding some', async () => {
      const all = await nodeLeases();
      const holders = new Set([...all.values()].map((s) => s.holderIdentity));
      return all.size === NODES && [...all.values()].every((s) => /^shard-[0-2]$/.test(s.holderIdentity ?? '')) && holders.size === 3 ? all : undefined;
    });
    assert.equal(leases.size, NODES);
    for (let i = 0; i < NODES; i++) await createPod(`pod-${i}`, nodeName(i));
    const ips = await eventually('pods Running', podIps);
    assert.equal(ips.size, NODES);
    assert.equal(new Set(ips.values()).size, NODES, `pod IPs are unique: ${[...ips.values()].join(' ')}`);
  });

  it('a killed shard’s nodes are taken over before their leases run out, and no pod IP changes', async () => {
    const before = await nodeLeases();
    const ipsBefore = (await podIps())!;
    const victim = 'shard-1';
    const orphans = [...before].filter(([, s]) => s.holderIdentity === victim).map(([name]) => name);
    assert.ok(orphans.length > 0);
    const abort = new AbortController();
    const list = await client.list(leasesResource, { namespace: 'kube-node-lease', limit: 1 });
    const history = recordLeases(list.resourceVersion, abort.signal);
    try {
      shards.get(victim)!.child.kill('SIGKILL');
      await eventually(`${orphans.length} nodes of ${victim} taken over`, async () =>
        orphans.every((n) => (history.get(n) ?? []).some((s) => s.holderIdentity === 'shard-0' || s.holderIdentity === 'shard-2')) ? true : undefined,
      );
      for (const name of orphans) {
        const problem = handedOverInTime(before.get(name)!, history.get(name) ?? []);
        assert.equal(problem, undefined, `node ${name}: ${problem}`);
      }
      // The new owners play pods on the nodes they took over.
      await createPod('pod-after-kill', orphans[0]!);
      const ipsAfter = await eventually('pods Running after the kill', podIps);
      for (const [name, ip] of ipsBefore) assert.equal(ipsAfter.get(name), ip, `pod ${name} kept its IP`);
      assert.ok(ipsAfter.get('pod-after-kill'));
      assert.equal(new Set(ipsAfter.values()).size, ipsAfter.size, 'no IP handed out twice');
    } finally {
      abort.abort();
    }
  });

  it('a joining shard takes its share of nodes without a lease lapsing', async () => {
    const before = await nodeLeases();
    const ipsBefore = (await podIps())!;
    const abort = new AbortController();
    const list = await client.list(leasesResource, { namespace: 'kube-node-lease', limit: 1 });
    const history = recordLeases(list.resourceVersion, abort.signal);
    try {
      startShard('shard-3', 3);
      const taken = await eventually('shard-3 holds some nodes, and every node one holder among the live shards', async () => {
        const all = await nodeLeases();
        const mine = [...all].filter(([, s]) => s.holderIdentity === 'shard-3').map(([n]) => n);
        return mine.length > 0 && [...all.values()].every((s) => ['shard-0', 'shard-2', 'shard-3'].includes(s.holderIdentity ?? '')) ? mine : undefined;
      });
      for (const name of taken) {
        const problem = handedOverInTime(before.get(name)!, history.get(name) ?? []);
        assert.equal(problem, undefined, `node ${name}: ${problem}`);
      }
      const ipsAfter = await eventually('pods Running after the join', podIps);
      for (const [name, ip] of ipsBefore) assert.equal(ipsAfter.get(name), ip, `pod ${name} kept its IP`);
    } finally {
      abort.abort();
    }
  });

  it('the child of a killed --shards 2 controller stops by itself', async () => {
    startShard('pair', 4, '--shards=2');
    const parent = shards.get('pair')!.child;
    const childPid = await eventually('the second shard of pair holding nodes', async () => {
      const all = await nodeLeases();
      if (![...all.values()].some((s) => s.holderIdentity === 'pair-1')) return undefined;
      const children = readFileSync(`/proc/${parent.pid}/task/${parent.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
      return children.length === 1 ? Number(children[0]) : undefined;
    });
    parent.kill('SIGTERM');
    parent.kill('SIGKILL');
    // Reaped by init once it exits; until then /proc keeps it (a zombie counts as gone).
    await eventually(`pair-1 (pid ${childPid}) gone`, async () => {
      if (!existsSync(`/proc/${childPid}`)) return true;
      return readFileSync(`/proc/${childPid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ? true : undefined;
    });
  });
});

/**
 * The kwok controller against a real etcd + kube-apiserver (+ kube-controller-manager and
 * kube-scheduler when available, for the Deployment case), using the real stage engine and Stage
 * YAML. Covers the seed scenarios: a node created before the controller becomes Ready (seed 001),
 * a Deployment of 10 pods runs with IPs 10.0.0.1-10 (seed 000), nodes outside the selector are
 * left alone, leases, scale-down deletes, and a restart that must not hand out duplicate IPs.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildConnection } from '../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../src/kube/client/http-client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig/load.js';
import { leasesResource, nodesResource, podsResource } from '../../src/kube/client/resources.js';
import type { KubeObject, ResourceRef } from '../../src/kube/client/types.js';
import { silentLogger } from '../../src/util/log.js';
import { findControlPlaneBinaries, startControlPlane } from './kwok-controller-cluster.js';
import type { ControlPlane } from './kwok-controller-cluster.js';
import { defaultStageYaml } from './kwok-controller-stages.js';

const deploymentsResource: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true };
const binaries = findControlPlaneBinaries();
const skip = typeof binaries === 'string' ? binaries : false;
if (skip) process.stdout.write(`skip: ${skip}\n`);

let plane: ControlPlane;
let client: HttpKubeClient;
let controller: ChildProcess | undefined;
let controllerLog = '';
let withScheduler = false;

function seedNode(name: string, annotations: Record<string, string>, type = 'kwok'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', ...annotations },
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/role': 'agent', type },
    },
    spec: { taints: [{ effect: 'NoSchedule', key: 'kwok.x-k8s.io/node', value: 'fake' }] },
    status: {
      allocatable: { cpu: '32', memory: '256Gi', pods: '110' },
      capacity: { cpu: '32', memory: '256Gi', pods: '110' },
      nodeInfo: { architecture: 'amd64', kubeProxyVersion: 'fake', kubeletVersion: 'fake', operatingSystem: 'linux', bootID: '', containerRuntimeVersion: '', kernelVersion: '', machineID: '', osImage: '', systemUUID: '' },
      phase: 'Running',
    },
  };
}

function startController(id: string): void {
  const stagesFile = join(plane.dir, 'stages.yaml');
  writeFileSync(stagesFile, defaultStageYaml().yaml);
  controllerLog = join(plane.dir, `kwok-controller-${id}.log`);
  const log = openSync(controllerLog, 'a');
  controller = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'kwok-controller-run.ts'),
      `--kubeconfig=${plane.kubeconfig}`,
      `--config=${stagesFile}`,
      '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
      '--node-lease-duration-seconds=40',
      '--server-address=127.0.0.1:0',
      `--id=${id}`,
    ],
    { stdio: ['ignore', log, log] },
  );
}

async function stopController(): Promise<void> {
  const child = controller;
  controller = undefined;
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; controller log:\n${readFileSync(controllerLog, 'utf8').slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function ready(node: KubeObject | undefined): boolean {
  const conditions = (node?.['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

async function fakePods(): Promise<KubeObject[]> {
  return (await client.list(podsResource, { namespace: 'default', labelSelector: 'app=fake-pod' })).items;
}

async function runningIps(count: number): Promise<string[] | undefined> {
  const pods = (await fakePods()).filter((p) => !p.metadata.deletionTimestamp);
  const running = pods.filter((p) => (p['status'] as { phase?: string }).phase === 'Running');
  if (pods.length !== count || running.length !== count) return undefined;
  return running.map((p) => (p['status'] as { podIP: string }).podIP).sort((a, b) => Number(a.split('.')[3]) - Number(b.split('.')[3]));
}

async function setReplicas(replicas: number): Promise<void> {
  if (withScheduler) {
    await client.patch(deploymentsResource, { name: 'fake-pod', namespace: 'default', patchType: 'merge', body: { spec: { replicas } } });
    return;
  }
  // Without a scheduler and controller-manager, play both roles: pods bound to the node directly.
  const pods = (await fakePods()).filter((p) => !p.metadata.deletionTimestamp);
  for (const pod of pods.slice(replicas)) await client.delete(podsResource, { name: pod.metadata.name!, namespace: 'default' });
  for (let i = pods.length; i < replicas; i++) {
    await client.create(podsResource, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { generateName: 'fake-pod-', namespace: 'default', labels: { app: 'fake-pod' } },
      spec: { nodeName: 'kwok-node-0', containers: [{ name: 'fake-container', image: 'fake-image' }], tolerations: [{ key: 'kwok.x-k8s.io/node', operator: 'Exists', effect: 'NoSchedule' }] },
    });
  }
}

describe('kwok controller against a real API server', { skip, timeout: 600_000 }, () => {
  before(async () => {
    if (typeof binaries === 'string') return;
    withScheduler = binaries.controllerManager !== undefined && binaries.scheduler !== undefined;
    plane = await startControlPlane(binaries, { withControllers: withScheduler });
    const { config } = loadKubeConfig({ kubeconfig: plane.kubeconfig, logger: silentLogger });
    client = new HttpKubeClient(await buildConnection(config));
  });

  after(async () => {
    await stopController();
    client?.close();
    await plane?.stop();
  });

  it('makes a node created before the controller Ready, and leaves unselected nodes alone', async () => {
    await client.create(nodesResource, seedNode('kwok-node-0', { 'kwok.x-k8s.io/node': 'fake' }));
    // Not selected (no annotation), and labelled so the Deployment's affinity keeps pods off it.
    await client.create(nodesResource, seedNode('other-node', {}, 'real'));
    startController('first');
    const node = await eventually('kwok-node-0 Ready', async () => {
      const n = await client.get(nodesResource, { name: 'kwok-node-0' });
      return ready(n) ? n : undefined;
    });
    const addresses = (node['status'] as { addresses: { type: string; address: string }[] }).addresses;
    assert.deepEqual(addresses.find((a) => a.type === 'InternalIP')?.address, '196.168.0.1');
    const lease = await client.get(leasesResource, { name: 'kwok-node-0', namespace: 'kube-node-lease' });
    assert.equal((lease?.['spec'] as { holderIdentity: string }).holderIdentity, 'first');
    assert.equal(lease?.metadata.ownerReferences?.[0]?.uid, node.metadata.uid);
    assert.equal(ready(await client.get(nodesResource, { name: 'other-node' })), false);
    assert.equal(await client.get(leasesResource, { name: 'other-node', namespace: 'kube-node-lease' }), undefined);
  });

  it('runs a Deployment of 10 pods with IPs 10.0.0.1 to 10.0.0.10', async () => {
    if (withScheduler) {
      await client.create(deploymentsResource, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'fake-pod', namespace: 'default' },
        spec: {
          replicas: 10,
          selector: { matchLabels: { app: 'fake-pod' } },
          template: {
            metadata: { labels: { app: 'fake-pod' } },
            spec: {
              affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'type', operator: 'In', values: ['kwok'] }] }] } } },
              tolerations: [{ key: 'kwok.x-k8s.io/node', operator: 'Exists', effect: 'NoSchedule' }],
              containers: [{ name: 'fake-container', image: 'fake-image' }],
            },
          },
        },
      });
    } else {
      await setReplicas(10);
    }
    const ips = await eventually('10 pods Running', () => runningIps(10), 120_000);
    assert.deepEqual(ips, Array.from({ length: 10 }, (_, i) => `10.0.0.${i + 1}`));
    const pods = await fakePods();
    assert.ok(pods.every((p) => (p['spec'] as { nodeName: string }).nodeName === 'kwok-node-0'), 'the scheduler put them on the fake node');
  });

  it('serves health and metrics', async () => {
    const port = /serving \/healthz[^\n]* on [^:\s]+:(\d+)/.exec(readFileSync(controllerLog, 'utf8'))?.[1];
    assert.ok(port, 'the server address is logged');
    assert.equal(await (await fetch(`http://127.0.0.1:${port}/healthz`)).text(), 'ok');
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    assert.match(metrics, /^kwok_managed_nodes 1$/m);
    assert.match(metrics, /^kwok_managed_pods 10$/m);
    assert.match(metrics, /^kwok_stage_plays_total\{kind="Pod",stage="pod-ready",result="success"\} 10$/m);
  });

  it('deletes pods on scale-down and reuses their IPs on scale-up', async () => {
    await setReplicas(4);
    await eventually('4 pods left', async () => ((await fakePods()).length === 4 ? true : undefined), 120_000);
    await setReplicas(10);
    const ips = await eventually('10 pods Running again', () => runningIps(10), 120_000);
    assert.equal(new Set(ips).size, 10, 'no duplicate IPs');
    assert.ok(ips.every((ip) => /^10\.0\.0\.([1-9]|10)$/.test(ip)), `freed IPs were reused: ${ips.join(' ')}`);
  });

  it('after a restart, keeps existing IPs and hands out no duplicates', async () => {
    await stopController();
    await setReplicas(4);
    startController('first');
    await eventually('4 pods left', async () => ((await fakePods()).length === 4 ? true : undefined), 120_000);
    await setReplicas(12);
    const ips = await eventually('12 pods Running', () => runningIps(12), 120_000);
    assert.equal(new Set(ips).size, 12, `no duplicate IPs: ${ips.join(' ')}`);
  });
});

/**
 * cluster-autoscaler's kwok provider against a kwokts cluster.
 *
 * 1. The kwok controller warns (log + Warning event) about provider templates without the
 *    nodegroup label, the provider's silent no-scale, and is quiet about the shipped example.
 * 2. Nodes shaped exactly as the provider creates them from the shipped templates (annotation
 *    kwok.x-k8s.io/node=fake, nodegroup annotation, providerID kwok:<name>, kubeletVersion "fake",
 *    the kwok-provider taint) become Ready under our controller and run the pending pods of the
 *    shipped workload; deleting a node without draining it (as the provider does) sends its pods
 *    back to Pending (kube-controller-manager's pod GC removes the orphans, the ReplicaSet
 *    recreates them, the scheduler finds no room).
 * 3. With a cluster-autoscaler binary (KWOK_CLUSTER_AUTOSCALER_BINARY, or one built by
 *    `kwokts artifacts build cluster-autoscaler [--source DIR]`), the real thing, run locally in
 *    KWOK_PROVIDER_MODE=local: pending pods make it add nodes, they become Ready under our
 *    controller and run the pods; scaling the workload to 0 makes it remove them. Without a
 *    binary this case is skipped and says why.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { clusterAutoscalerVersionForKube, DEFAULT_KUBE_VERSION, normalizeVersion } from '../../src/config/versions.js';
import { freePort, kwokts, requireBinaries, ROOT, sandbox, waitFor, type Sandbox, failure } from './harness.js';

const NAME = 'ca';
const NS = 'autoscaling';
const CONFIGMAPS = join(ROOT, 'templates', 'autoscaler', 'kwok-provider-configmaps.yaml');
const WORKLOAD = join(ROOT, 'templates', 'autoscaler', 'workload.yaml');

/** A cluster-autoscaler built with the kwok provider, or why there is none. */
function findClusterAutoscaler(): { binary: string } | { skip: string } {
  const explicit = process.env['KWOK_CLUSTER_AUTOSCALER_BINARY'];
  if (explicit) return existsSync(explicit) ? { binary: explicit } : { skip: `KWOK_CLUSTER_AUTOSCALER_BINARY=${explicit} does not exist` };
  const cache = process.env['KWOK_CACHE_DIR'] ?? join(homedir(), '.kwok', 'cache');
  const version = normalizeVersion(process.env['KWOK_CLUSTER_AUTOSCALER_VERSION'] || clusterAutoscalerVersionForKube(process.env['KWOK_KUBE_VERSION'] || DEFAULT_KUBE_VERSION));
  for (const candidate of [join(cache, 'gobuild', 'cluster-autoscaler', version, 'cluster-autoscaler'), join(cache, 'gobuild', 'cluster-autoscaler', 'source', 'cluster-autoscaler')]) {
    if (existsSync(candidate)) return { binary: candidate };
  }
  return {
    skip: 'no cluster-autoscaler binary: `kwokts artifacts build cluster-autoscaler` could not build one here (the Go module proxy does not serve sigs.k8s.io/cluster-autoscaler); build one from a checkout with --source DIR or set KWOK_CLUSTER_AUTOSCALER_BINARY',
  };
}

const autoscaler = findClusterAutoscaler();
if ('skip' in autoscaler) process.stdout.write(`skip: ${autoscaler.skip}\n`);

interface PodView {
  name: string;
  phase: string;
  node: string;
  ip: string;
  unschedulable: boolean;
}

describe('cluster-autoscaler kwok provider', () => {
  let box: Sandbox;
  const k = async (args: string[], input?: string) => kwokts(box, ['--name', NAME, 'kubectl', ...args], input === undefined ? {} : { input });
  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await k(args, input);
    assert.equal(r.exitCode, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const pods = async (): Promise<PodView[]> => {
    const list = JSON.parse(await ok(['get', 'pods', '-n', NS, '-l', 'app=autoscale-demo', '-o', 'json'])) as { items: Record<string, any>[] };
    return list.items
      .filter((p) => !p['metadata'].deletionTimestamp)
      .map((p) => ({
        name: p['metadata'].name,
        phase: p['status']?.phase ?? '',
        node: p['spec']?.nodeName ?? '',
        ip: p['status']?.podIP ?? '',
        unschedulable: (p['status']?.conditions ?? []).some((c: Record<string, string>) => c['type'] === 'PodScheduled' && c['reason'] === 'Unschedulable'),
      }));
  };
  const controllerLog = async (): Promise<string> => (await kwokts(box, ['--name', NAME, 'logs', 'kwok-controller'])).stdout;

  before(async () => {
    requireBinaries();
    box = sandbox();
    const r = await kwokts(box, ['--name', NAME, 'create', 'cluster', '--wait', '2m']);
    assert.equal(r.exitCode, 0, failure(r));
    await ok(['create', 'namespace', NS]);
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  test('the controller warns about template nodes without the nodegroup label, and not about the example', async () => {
    const example = readFileSync(CONFIGMAPS, 'utf8');
    // The provider's top complaint: the label named by fromNodeLabelKey is missing on every template.
    const broken = example.replace(/^\s+kwok-nodegroup: (small|large)\n/gm, '');
    assert.notEqual(broken, example);
    await ok(['apply', '-n', NS, '-f', '-'], broken);
    await waitFor('a KwokProviderNoNodegroup event', async () => (await ok(['get', 'events', '-n', NS, '--field-selector', 'reason=KwokProviderNoNodegroup', '-o', 'name'])).trim() !== '', 30_000, 500);
    const described = await ok(['describe', 'configmap', '-n', NS, 'kwok-provider-templates']);
    assert.match(described, /Warning\s+KwokProviderNoNodegroup/);
    const log = await controllerLog();
    assert.match(log, /cluster-autoscaler kwok provider \(autoscaling\): autoscaling\/kwok-provider-templates: no template node has the label "kwok-nodegroup"/);
    assert.match(log, /add it to "small", "large"/);

    await ok(['apply', '-n', NS, '-f', CONFIGMAPS]);
    await waitFor('the fix to be noticed', async () => /kwok-provider-config: problems fixed/.test(await controllerLog()), 30_000, 500);
  });

  test('nodes shaped like the provider creates them become Ready and run the pods; a deleted node sends its pods back to Pending', async () => {
    // The example templates are in place (previous test). Pending first: nothing fits yet.
    await ok(['apply', '-n', NS, '-f', WORKLOAD]);
    await waitFor('3 unschedulable pods', async () => {
      const p = await pods();
      return p.length === 3 && p.every((x) => x.phase === 'Pending' && x.unschedulable);
    }, 60_000, 500);

    // What the provider does with a template (its README's "Gotchas" and IncreaseSize): kubeletVersion
    // "fake", the kwok and nodegroup annotations, providerID kwok:<name>, the kwok-provider taint.
    const cms = readFileSync(CONFIGMAPS, 'utf8').split(/^---$/m).map((d) => parse(d) as { metadata: { name: string }; data: Record<string, string> });
    const templates = parse(cms.find((c) => c.metadata.name === 'kwok-provider-templates')!.data['templates']!) as { items: Record<string, any>[] };
    const small = templates.items.find((n) => n['metadata'].name === 'small')!;
    const group = `small-${Math.floor(Date.now() / 1000)}`;
    const names = [`${group}-abcde`, `${group}-fghij`];
    for (const name of names) {
      const node = structuredClone(small);
      node['metadata'] = {
        ...node['metadata'],
        name,
        annotations: {
          ...node['metadata'].annotations,
          'kwok.x-k8s.io/node': 'fake',
          'cluster-autoscaler.kwok.nodegroup/name': group,
          'metrics.k8s.io/resource-metrics-path': `/metrics/nodes/${name}/metrics/resource`,
        },
      };
      node['spec'] = { providerID: `kwok:${name}`, taints: [{ key: 'kwok-provider', value: 'true', effect: 'NoSchedule' }] };
      node['status'] = { ...node['status'], nodeInfo: { kubeletVersion: 'fake' } };
      await ok(['create', '-f', '-'], JSON.stringify(node));
    }
    const created = Date.now();
    await waitFor('both nodes Ready', async () => {
      const out = await ok(['get', 'nodes', ...names, '-o', 'jsonpath={range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\\n"}{end}']);
      return out.trim().split('\n').filter((s) => s === 'True').length === 2;
    }, 60_000, 500);
    await waitFor('3 pods Running on the new nodes', async () => {
      const p = await pods();
      return p.length === 3 && p.every((x) => x.phase === 'Running' && names.includes(x.node) && x.ip !== '');
    }, 60_000, 500);
    process.stdout.write(`measured: provider-shaped nodes created -> Ready with 3 pods Running in ${((Date.now() - created) / 1000).toFixed(1)}s\n`);
    const running = await pods();
    assert.equal(new Set(running.map((p) => p.ip)).size, 3, `pod IPs are unique: ${running.map((p) => p.ip).join(' ')}`);
    // The provider's taint and providerID survive our controller's stages.
    const kept = JSON.parse(await ok(['get', 'node', names[0]!, '-o', 'json'])) as Record<string, any>;
    assert.equal(kept['spec'].providerID, `kwok:${names[0]}`);
    assert.deepEqual(kept['spec'].taints.map((t: Record<string, string>) => t['key']), ['kwok-provider']);

    // The provider deletes nodes without draining them. The node holding two pods goes.
    const counts = new Map<string, number>();
    for (const p of running) counts.set(p.node, (counts.get(p.node) ?? 0) + 1);
    const victim = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const survivor = names.find((n) => n !== victim)!;
    await ok(['delete', 'node', victim]);
    const deleted = Date.now();
    // 2 CPUs left for 3 pods of 1 CPU: one stays Pending, unschedulable (what cluster-autoscaler scales up on).
    await waitFor('the orphaned pods to be replaced and one to be Pending', async () => {
      const p = await pods();
      return p.length === 3 && p.filter((x) => x.phase === 'Running' && x.node === survivor).length === 2 && p.filter((x) => x.phase === 'Pending' && x.unschedulable && x.node === '').length === 1;
    }, 150_000, 1000);
    process.stdout.write(`measured: node deleted -> its pods replaced, one Pending (Unschedulable), in ${((Date.now() - deleted) / 1000).toFixed(1)}s\n`);
    assert.ok(!(await pods()).some((p) => p.node === victim), 'no pod is left bound to the deleted node');

    await ok(['scale', 'deployment', '-n', NS, 'autoscale-demo', '--replicas', '0']);
    await ok(['delete', 'node', survivor]);
    await waitFor('the workload to be gone', async () => (await pods()).length === 0, 60_000, 500);
  });

  test('the real cluster-autoscaler scales the kwok nodegroups up for pending pods and down when they are gone', { skip: 'skip' in autoscaler ? autoscaler.skip : false }, async () => {
    if (!('binary' in autoscaler)) return;
    const provisioned = async (): Promise<{ name: string; ready: boolean }[]> => {
      const list = JSON.parse(await ok(['get', 'nodes', '-o', 'json'])) as { items: Record<string, any>[] };
      return list.items
        .filter((n) => n['metadata'].annotations?.['cluster-autoscaler.kwok.nodegroup/name'] && n['spec']?.providerID === `kwok:${n['metadata'].name}`)
        .map((n) => ({ name: n['metadata'].name, ready: (n['status']?.conditions ?? []).some((c: Record<string, string>) => c['type'] === 'Ready' && c['status'] === 'True') }));
    };
    assert.deepEqual(await provisioned(), [], 'no provider node before the autoscaler runs');
    const logFile = join(box.workdir, '..', 'cluster-autoscaler.log');
    const log = openSync(logFile, 'a');
    const child = spawn(
      autoscaler.binary,
      [
        `--kubeconfig=${box.kubeconfig}`,
        '--cloud-provider=kwok',
        `--namespace=${NS}`,
        '--leader-elect=false',
        `--address=127.0.0.1:${await freePort()}`,
        '--scan-interval=5s',
        // Prompt scale-down. Besides the usual delays, the recheck timeout matters most: a node
        // found unremovable (its pods were still there when the workload was scaled to 0) is not
        // looked at again for --unremovable-node-recheck-timeout, 5 minutes by default.
        '--scale-down-enabled=true',
        '--scale-down-delay-after-add=10s',
        '--scale-down-delay-after-delete=5s',
        '--scale-down-delay-after-failure=10s',
        '--scale-down-unneeded-time=10s',
        '--unremovable-node-recheck-timeout=10s',
        '--max-node-provision-time=2m',
        '--logtostderr=true',
        '--v=2',
      ],
      // In local mode the provider builds its own client from KUBECONFIG, ignoring --kubeconfig (which CA's core uses): both are needed.
      { env: { ...process.env, KUBECONFIG: box.kubeconfig, KWOK_PROVIDER_MODE: 'local', POD_NAMESPACE: NS }, stdio: ['ignore', log, log] },
    );
    closeSync(log);
    const tail = (): string => readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    try {
      // Self-contained: the shipped ConfigMaps and the workload at its 3 replicas.
      await ok(['apply', '-n', NS, '-f', CONFIGMAPS]);
      await ok(['apply', '-n', NS, '-f', WORKLOAD]);
      await ok(['scale', 'deployment', '-n', NS, 'autoscale-demo', '--replicas', '3']);
      const scaledUp = Date.now();
      await waitFor('cluster-autoscaler to add Ready nodes that run the 3 pods', async () => {
        assert.equal(child.exitCode, null, `cluster-autoscaler exited:\n${tail()}`);
        const nodes = await provisioned();
        const p = await pods();
        return nodes.length > 0 && nodes.every((n) => n.ready) && p.length === 3 && p.every((x) => x.phase === 'Running' && nodes.some((n) => n.name === x.node));
      }, 180_000, 2000).catch((error: Error) => assert.fail(error.message.includes('cluster-autoscaler exited') ? error.message : `${error.message}\n${tail()}`));

      process.stdout.write(`measured: workload at 3 replicas -> cluster-autoscaler's nodes Ready with the pods Running in ${((Date.now() - scaledUp) / 1000).toFixed(1)}s\n`);
      await ok(['scale', 'deployment', '-n', NS, 'autoscale-demo', '--replicas', '0']);
      const scaledDown = Date.now();
      await waitFor('cluster-autoscaler to remove its nodes', async () => {
        assert.equal(child.exitCode, null, `cluster-autoscaler exited:\n${tail()}`);
        return (await provisioned()).length === 0;
      }, 300_000, 2000).catch((error: Error) => assert.fail(error.message.includes('cluster-autoscaler exited') ? error.message : `${error.message}\n${tail()}`));
      process.stdout.write(`measured: workload at 0 -> cluster-autoscaler's nodes removed in ${((Date.now() - scaledDown) / 1000).toFixed(1)}s\n`);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 2000));
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

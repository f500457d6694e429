import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { nodesResource, podsResource, eventsResource } from '../../../../src/kube/client/resources.js';
import type { StageAction } from '../../../../src/kwok/controllers/stage-engine.js';
import { FakeKubeClient } from './fake-kube-client.js';
import { nodeReadyStage, podDeleteStage, podReadyStage } from './fake-stages.js';
import type { FakeStage } from './fake-stages.js';
import { eventually, node, phaseOf, pod, podIpOf, settle, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const defaultStages = [nodeReadyStage, podReadyStage, podDeleteStage];
let harness: Harness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

describe('KwokController with a fake API', () => {
  it('makes a node that existed before the controller Ready, with the node template values', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('kwok-node-0'));
    harness = startHarness({ client, stages: defaultStages, nodeIP: '10.1.2.3' });
    await eventually(() => phaseOf(client.object(nodesResource, 'kwok-node-0')) === 'Running', 'node Running');
    const status = client.object(nodesResource, 'kwok-node-0')!['status'] as { addresses: { address: string }[] };
    assert.equal(status.addresses[0]!.address, '10.1.2.3');
    const patch = client.callsOf('patch', 'nodes')[0]!;
    assert.equal(patch.subresource, 'status');
  });

  it('runs pods on managed nodes with sequential IPs from --cidr and the node host IP', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    for (const name of ['a', 'b', 'c']) client.seed(podsResource, pod(name, 'n1'));
    harness = startHarness({ client, stages: defaultStages });
    await eventually(() => ['a', 'b', 'c'].every((n) => phaseOf(client.object(podsResource, `default/${n}`)) === 'Running'), 'pods Running');
    const ips = ['a', 'b', 'c'].map((n) => podIpOf(client.object(podsResource, `default/${n}`))).sort();
    assert.deepEqual(ips, ['10.0.0.1', '10.0.0.2', '10.0.0.3']);
    const hostIP = (client.object(podsResource, 'default/a')!['status'] as { hostIP: string }).hostIP;
    assert.equal(hostIP, '196.168.0.1', 'host IP from the node InternalIP set by node-initialize');
    assert.equal(harness.controller.stats().managedPods, 3);
  });

  it('uses the node podCIDR and gives hostNetwork pods the node IP', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1', { podCIDR: '10.244.1.0/24' }));
    client.seed(podsResource, pod('net', 'n1'));
    client.seed(podsResource, pod('host', 'n1', { hostNetwork: true }));
    harness = startHarness({ client, stages: defaultStages, nodeIP: '172.18.0.9' });
    await eventually(() => phaseOf(client.object(podsResource, 'default/net')) === 'Running' && phaseOf(client.object(podsResource, 'default/host')) === 'Running', 'pods Running');
    assert.equal(podIpOf(client.object(podsResource, 'default/net')), '10.244.1.1');
    assert.equal(podIpOf(client.object(podsResource, 'default/host')), '172.18.0.9');
  });

  it('does not hand out IPs that pods already had before a restart', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, { ...node('n1'), status: { phase: 'Running' } });
    client.seed(podsResource, pod('old-1', 'n1', { status: { phase: 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }] } }));
    client.seed(podsResource, pod('old-2', 'n1', { status: { phase: 'Running', podIP: '10.0.0.2', podIPs: [{ ip: '10.0.0.2' }] } }));
    client.seed(podsResource, pod('new', 'n1'));
    harness = startHarness({ client, stages: defaultStages });
    await eventually(() => phaseOf(client.object(podsResource, 'default/new')) === 'Running', 'new pod Running');
    assert.equal(podIpOf(client.object(podsResource, 'default/new')), '10.0.0.3');
  });

  it('deletes pods with grace period 0 through the delete stage and reuses their IPs', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    client.seed(podsResource, pod('a', 'n1'));
    harness = startHarness({ client, stages: defaultStages });
    await eventually(() => phaseOf(client.object(podsResource, 'default/a')) === 'Running', 'pod a Running');
    const ipA = podIpOf(client.object(podsResource, 'default/a'));
    client.modify(podsResource, 'default/a', (p) => (p.metadata.deletionTimestamp = new Date().toISOString()));
    await eventually(() => client.object(podsResource, 'default/a') === undefined, 'pod a deleted');
    client.seed(podsResource, pod('b', 'n1'));
    await eventually(() => phaseOf(client.object(podsResource, 'default/b')) === 'Running', 'pod b Running');
    assert.equal(podIpOf(client.object(podsResource, 'default/b')), ipA, 'the freed IP is reused');
  });

  it('leaves pods on unmanaged nodes alone and plays them once their node becomes managed', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    client.seed(podsResource, pod('p', 'n1'));
    harness = startHarness({ client, stages: defaultStages, mode: { kind: 'annotation-selector', selector: 'kwok.x-k8s.io/node=fake' } });
    await harness.controller.waitForSync();
    await settle();
    assert.equal(phaseOf(client.object(nodesResource, 'n1')), undefined);
    assert.equal(phaseOf(client.object(podsResource, 'default/p')), 'Pending');
    assert.equal(client.callsOf('patch').length, 0);
    client.modify(nodesResource, 'n1', (n) => (n.metadata.annotations = { 'kwok.x-k8s.io/node': 'fake' }));
    await eventually(() => phaseOf(client.object(podsResource, 'default/p')) === 'Running', 'pod Running after the node is managed');
    assert.equal(phaseOf(client.object(nodesResource, 'n1')), 'Running');
  });

  it('selects nodes by label selector and by single node name', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('fake-1', { labels: { type: 'kwok' } }));
    client.seed(nodesResource, node('real-1', { labels: { type: 'real' } }));
    harness = startHarness({ client, stages: defaultStages, mode: { kind: 'label-selector', selector: 'type=kwok' } });
    await eventually(() => phaseOf(client.object(nodesResource, 'fake-1')) === 'Running', 'fake-1 Running');
    await settle();
    assert.equal(phaseOf(client.object(nodesResource, 'real-1')), undefined);
    await harness.stop();

    const single = new FakeKubeClient();
    single.seed(nodesResource, node('a'));
    single.seed(nodesResource, node('b'));
    single.seed(podsResource, pod('on-a', 'a'));
    single.seed(podsResource, pod('on-b', 'b'));
    harness = startHarness({ client: single, stages: defaultStages, mode: { kind: 'single', nodeName: 'b' } });
    await eventually(() => phaseOf(single.object(podsResource, 'default/on-b')) === 'Running', 'pod on b Running');
    await settle();
    assert.equal(phaseOf(single.object(nodesResource, 'a')), undefined);
    assert.equal(phaseOf(single.object(podsResource, 'default/on-a')), 'Pending');
    const watches = single.calls.filter((c) => c.verb === 'list').map((c) => c.resource);
    assert.ok(watches.includes('nodes') && watches.includes('pods'));
  });

  it('ignores disregarded pods', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    const skipped = pod('skip', 'n1');
    skipped.metadata.labels = { frozen: 'true' };
    client.seed(podsResource, skipped);
    client.seed(podsResource, pod('run', 'n1'));
    const { buildNodeSelection } = await import('../../../../src/kwok/controllers/node-selection.js');
    const selection = buildNodeSelection({ kind: 'all' }, { labelSelector: 'frozen=true' });
    assert.equal(selection.isDisregarded(skipped), true);
    assert.equal(selection.isManagedNode(node('x', { labels: { frozen: 'true' } })), false);
  });

  it('re-feeds the patched object for immediateNextStage without waiting for the watch', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    const step = (name: string, from: string | undefined, to: string): FakeStage => ({
      name,
      kind: 'Node',
      immediateNextStage: true,
      matches: (n) => phaseOf(n) === from,
      actions: (): StageAction[] => [{ kind: 'patch', patchType: 'merge', body: { status: { phase: to } } }],
    });
    harness = startHarness({ client, stages: [step('one', undefined, 'A'), step('two', 'A', 'B'), step('three', 'B', 'C')] });
    await harness.controller.waitForSync();
    client.muteWatches = true;
    await eventually(() => phaseOf(client.object(nodesResource, 'n1')) === 'C', 'three chained stages');
  });

  it('skips patches that would not change the object', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, { ...node('n1'), status: { phase: 'Running' } });
    const noop: FakeStage = {
      name: 'noop',
      kind: 'Node',
      matches: () => true,
      actions: () => [{ kind: 'patch', patchType: 'merge', body: { status: { phase: 'Running' } } }],
    };
    harness = startHarness({ client, stages: [noop] });
    await harness.controller.waitForSync();
    await settle();
    assert.equal(client.callsOf('patch').length, 0);
  });

  it('logs a render error with object and stage and keeps playing other objects', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, { ...node('bad'), metadata: { name: 'bad', labels: { broken: 'yes' } } });
    client.seed(nodesResource, node('good'));
    const broken: FakeStage = {
      name: 'broken-template',
      kind: 'Node',
      matches: (n) => n.metadata.labels?.['broken'] === 'yes',
      actions: () => {
        throw new Error('template: unknown function "Nope"');
      },
    };
    harness = startHarness({ client, stages: [broken, nodeReadyStage] });
    await eventually(() => phaseOf(client.object(nodesResource, 'good')) === 'Running', 'good node Running');
    await eventually(() => harness!.logs.some((l) => l.includes('Node bad') && l.includes('broken-template') && l.includes('unknown function')), 'error logged');
  });

  it('runs event, finalizer and delete actions in step order', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    const p = pod('p', 'n1');
    p.metadata.finalizers = ['a', 'b'];
    p.metadata.deletionTimestamp = new Date().toISOString();
    client.seed(podsResource, p);
    const drop: FakeStage = {
      name: 'drop-finalizers-and-delete',
      kind: 'Pod',
      matches: (x) => Boolean(x.metadata.deletionTimestamp),
      actions: () => [
        { kind: 'event', type: 'Normal', reason: 'Killing', message: 'Stopping container' },
        { kind: 'finalizers', patch: [{ op: 'remove', path: '/metadata/finalizers' }] },
        { kind: 'delete' },
        { kind: 'patch', patchType: 'merge', body: { status: { phase: 'Never' } } },
        { kind: 'event', type: 'Normal', reason: 'Deleted', message: 'gone' },
      ],
    };
    harness = startHarness({ client, stages: [nodeReadyStage, drop] });
    await eventually(() => client.object(podsResource, 'default/p') === undefined, 'pod deleted');
    await eventually(() => client.all(eventsResource).length === 2, 'two events');
    const verbs = client.calls.filter((c) => c.resource === 'pods' && c.verb !== 'list' && c.verb !== 'watch').map((c) => `${c.verb}${c.patchType ? `:${c.patchType}` : ''}`);
    assert.deepEqual(verbs, ['patch:json', 'delete'], 'the patch after the delete is skipped');
    const event = client.all(eventsResource)[0]!;
    assert.deepEqual(event['source'], { component: 'kwok_controller', host: 'test-controller' });
    assert.equal((event['involvedObject'] as { name: string }).name, 'p');
  });

  it('applies another object (create, then patch when it exists)', async () => {
    const client = new FakeKubeClient();
    const pvRef = { group: '', version: 'v1', resource: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false };
    const pvcRef = { group: '', version: 'v1', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true };
    client.addResource(pvRef);
    client.addResource(pvcRef);
    client.seed(pvcRef, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'claim', namespace: 'default' }, spec: {} });
    const provision: FakeStage = {
      name: 'pvc-provision',
      kind: 'PersistentVolumeClaim',
      matches: (claim) => !(claim['spec'] as { volumeName?: string }).volumeName,
      actions: (claim) => [
        { kind: 'apply', applyType: 'merge', object: { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: `pvc-${claim.metadata.uid}` }, spec: { capacity: { storage: '1Gi' } } } },
        { kind: 'patch', patchType: 'merge', body: { spec: { volumeName: `pvc-${claim.metadata.uid}` } } },
      ],
    };
    harness = startHarness({ client, stages: [nodeReadyStage, podReadyStage, provision] });
    await eventually(() => client.all(pvRef).length === 1, 'PV created');
    await eventually(() => Boolean((client.object(pvcRef, 'default/claim')!['spec'] as { volumeName?: string }).volumeName), 'PVC bound');
  });
});

describe('stages from Stage CRs (--enable-crds=Stage)', () => {
  it('plays nothing until Stage CRs appear, then rebuilds the stage sets and starts generic controllers', async () => {
    const { stagesResource } = await import('../../../../src/kube/client/resources.js');
    const { fakeCatalogFactory } = await import('./fake-stages.js');
    const configMaps = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
    const labelConfigMap: FakeStage = {
      name: 'label-configmap',
      kind: 'ConfigMap',
      matches: (cm) => !cm.metadata.labels?.['seen'],
      actions: () => [{ kind: 'patch', patchType: 'merge', body: { metadata: { labels: { seen: 'yes' } } } }],
    };
    // CRs are plain data; the test factory maps them by name to scripted stages.
    const byName = new Map([nodeReadyStage, labelConfigMap].map((s) => [s.name, s]));
    const client = new FakeKubeClient();
    client.addResource(configMaps);
    client.seed(nodesResource, node('n1'));
    client.seed(configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' } });
    harness = startHarness({
      client,
      stages: [],
      watchStageCrds: true,
      catalogFactory: (docs) => fakeCatalogFactory(docs.map((d) => byName.get((d as { metadata: { name: string } }).metadata.name)).filter((s) => s !== undefined)),
    });
    await harness.controller.waitForSync();
    await settle(300);
    assert.equal(phaseOf(client.object(nodesResource, 'n1')), undefined);
    const cr = (name: string, kind: string) => ({ apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Stage', metadata: { name }, spec: { resourceRef: { apiGroup: 'v1', kind }, selector: {} } });
    client.seed(stagesResource, cr('node-initialize', 'Node'));
    await eventually(() => phaseOf(client.object(nodesResource, 'n1')) === 'Running', 'node played after the Stage CR appeared');
    client.seed(stagesResource, cr('label-configmap', 'ConfigMap'));
    await eventually(() => client.object(configMaps, 'default/cm')?.metadata.labels?.['seen'] === 'yes', 'generic controller played the ConfigMap stage');
    assert.ok(harness.logs.some((l) => l.includes('started the controller for v1/ConfigMap')));
  });
});

describe('stage job queueing', () => {
  it('deduplicates same-version events and lets a newer version replace the pending delayed job', async () => {
    const { ManualClock } = await import('./manual-clock.js');
    const clock = new ManualClock();
    const client = new FakeKubeClient();
    client.seed(nodesResource, { ...node('n1'), metadata: { name: 'n1', labels: { version: 'one' } } });
    const delayed: FakeStage = {
      name: 'delayed-copy',
      kind: 'Node',
      delayMs: 1000,
      matches: (n) => !(n['status'] as { copied?: string } | undefined)?.copied,
      actions: (n) => [{ kind: 'patch', patchType: 'merge', body: { status: { copied: n.metadata.labels?.['version'] } } }],
    };
    harness = startHarness({ client, stages: [delayed], clock });
    const nodes = harness.controller.nodes.controller;
    await nodes.waitForSync();
    assert.equal(nodes.queueDepth, 1);
    nodes.handle('MODIFIED', client.object(nodesResource, 'n1')!);
    assert.equal(nodes.queueDepth, 1, 'same resourceVersion: no second job');
    clock.advance(500);
    client.modify(nodesResource, 'n1', (n) => (n.metadata.labels = { version: 'two' }));
    await eventually(() => nodes.lookup('n1')?.metadata.labels?.['version'] === 'two', 'newer version seen');
    assert.equal(nodes.queueDepth, 1, 'the newer version replaced the pending job');
    clock.advance(600);
    await settle(20);
    assert.equal(client.callsOf('patch').length, 0, 'past the first due time, but the delay restarted with the newer version');
    clock.advance(400);
    await eventually(() => client.callsOf('patch').length === 1, 'one patch');
    assert.equal((client.object(nodesResource, 'n1')!['status'] as { copied: string }).copied, 'two');
    await settle(20);
    assert.equal(client.callsOf('patch').length, 1, 'the replaced job never ran');
  });
});

describe('failed writes', () => {
  it('are played again after a backoff from the action that failed, unless a newer version of the object came first', async () => {
    const { ManualClock } = await import('./manual-clock.js');
    const { KubeApiError } = await import('../../../../src/kube/client/api-error.js');
    const clock = new ManualClock();
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    const beat: FakeStage = {
      name: 'event-then-status',
      kind: 'Node',
      matches: (n) => (n['status'] as { beat?: string } | undefined)?.beat !== n.metadata.labels?.['round'],
      actions: (n) => [
        { kind: 'event', type: 'Normal', reason: 'Beat', message: 'beat' },
        { kind: 'patch', patchType: 'merge', subresource: 'status', body: { status: { beat: n.metadata.labels?.['round'] ?? null } } },
      ],
    };
    client.modify(nodesResource, 'n1', (n) => (n.metadata.labels = { round: 'one' }));
    const invalid = new KubeApiError('PATCH nodes/n1/status: 422 Invalid: status.addresses[2]: Duplicate value', 422, 'Invalid');
    client.failNext('patch', invalid, 'nodes');
    harness = startHarness({ client, stages: [beat], clock });
    const nodes = harness.controller.nodes.controller;
    const beatOf = (): string | undefined => (client.object(nodesResource, 'n1')!['status'] as { beat?: string } | undefined)?.beat;
    await eventually(() => harness!.logs.some((l) => l.includes('Duplicate value') && l.includes('retrying in')), 'the failure logged with its retry');
    assert.equal(beatOf(), undefined);
    assert.equal(nodes.queueDepth, 1, 'the retry waits in the queue');
    clock.advance(1300);
    await eventually(() => beatOf() === 'one', 'the retry wrote the status');
    assert.equal(client.callsOf('create', 'events').length, 1, 'the retry resumed at the failed write, after the event');

    client.failNext('patch', invalid, 'nodes');
    client.modify(nodesResource, 'n1', (n) => (n.metadata.labels = { round: 'two' }));
    await eventually(() => harness!.logs.filter((l) => l.includes('retrying in')).length === 2, 'the second failure logged');
    client.modify(nodesResource, 'n1', (n) => (n.metadata.labels = { round: 'three' }));
    await eventually(() => beatOf() === 'three', 'the newer version played at once');
    assert.equal(nodes.queueDepth, 0, 'the newer version replaced the retry');
  });
});

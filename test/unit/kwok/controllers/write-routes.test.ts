import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubeApiError } from '../../../../src/kube/client/api-error.js';
import { podsResource } from '../../../../src/kube/client/resources.js';
import type { KubeObject } from '../../../../src/kube/client/types.js';
import { EventRecorder } from '../../../../src/kwok/controllers/event-recorder.js';
import type { ResourceStages, StageAction } from '../../../../src/kwok/controllers/stage-engine.js';
import { runStageActions, type StepContext } from '../../../../src/kwok/controllers/step-runner.js';
import { sameAsMergePatch, type WriteRoutes } from '../../../../src/kwok/controllers/write-routes.js';
import { silentLogger } from '../../../../src/util/log.js';
import { FakeKubeClient } from './fake-kube-client.js';
import { pod } from './harness.js';

const stages: ResourceStages = { stageNames: [], match: () => undefined, planActions: () => [], patchChangesObject: () => true };
const readyPatch = { status: { phase: 'Running', podIP: '10.0.0.1', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'c', ready: true }] } };

function context(client: FakeKubeClient, needLatest = false, routes?: WriteRoutes): StepContext {
  return { client, ref: podsResource, stages, events: new EventRecorder(client, silentLogger, 'test'), logger: silentLogger, gracePeriodSeconds: 0, needLatest, ...(routes ? { routes } : {}) };
}

async function play(client: FakeKubeClient, object: KubeObject): Promise<void> {
  await runStageActions([{ kind: 'patch', patchType: 'strategic', subresource: 'status', body: readyPatch }], object, context(client));
}

describe('strategic patches sent as merge patches when the effect is the same', () => {
  it('tells when every list of the patch lands where the object has none', () => {
    assert.equal(sameAsMergePatch({ status: { phase: 'Pending' } }, readyPatch), true);
    assert.equal(sameAsMergePatch({ status: { conditions: [] } }, readyPatch), true);
    assert.equal(sameAsMergePatch({ status: { conditions: [{ type: 'PodScheduled', status: 'True' }] } }, readyPatch), false);
    assert.equal(sameAsMergePatch({}, { status: { $setElementOrder: [] } }), false);
    assert.equal(sameAsMergePatch({ status: { capacity: { cpu: '1' } } }, { status: { capacity: { pods: '110' } } }), true);
  });

  it('a new pod gets its status PUT with the resourceVersion it was seen at', async () => {
    const client = new FakeKubeClient();
    const fresh = client.seed(podsResource, pod('fresh', 'n1'));
    await play(client, fresh);
    const [put] = client.callsOf('update');
    assert.equal(put?.subresource, 'status');
    const sent = put?.body as KubeObject;
    assert.equal(sent.metadata.resourceVersion, fresh.metadata.resourceVersion);
    assert.equal(sent['spec'], undefined, 'no spec: the apiserver keeps the stored one');
    assert.deepEqual(sent.metadata, fresh.metadata, 'metadata whole');
    assert.deepEqual(sent['status'], { ...(fresh['status'] as object), ...readyPatch.status });
    assert.deepEqual(client.callsOf('patch'), []);
  });

  it('a scheduled pod too, its conditions merged by type in the order kube-apiserver gives them', async () => {
    const client = new FakeKubeClient();
    const scheduled = client.seed(podsResource, pod('scheduled', 'n1', { status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] } }));
    await play(client, scheduled);
    const [put] = client.callsOf('update');
    assert.deepEqual((put?.body as { status: { conditions: unknown } }).status.conditions, [
      { type: 'Ready', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ]);
    assert.deepEqual(client.callsOf('patch'), []);
  });

  it('a list we cannot merge exactly here (containerStatuses, no merge key) leaves the patch to the apiserver', async () => {
    const client = new FakeKubeClient();
    const restarted = client.seed(podsResource, pod('restarted', 'n1', { status: { phase: 'Pending', containerStatuses: [{ name: 'c', ready: false }] } }));
    await play(client, restarted);
    assert.deepEqual(client.callsOf('update'), []);
    assert.deepEqual(client.callsOf('patch').map((c) => c.patchType), ['strategic']);
  });

  it('falls back to the strategic patch when the object changed since it was seen', async () => {
    const client = new FakeKubeClient();
    const fresh = client.seed(podsResource, pod('fresh', 'n1'));
    client.failNext('update', new KubeApiError('conflict', 409, 'Conflict'), 'pods');
    await play(client, fresh);
    assert.equal(client.callsOf('update').length, 1);
    assert.deepEqual(client.callsOf('patch').map((c) => c.patchType), ['strategic']);
  });

  it('a refused PUT (a role granting patch alone) falls back to the patch, and the shared routes stop trying it', async () => {
    const client = new FakeKubeClient();
    const routes: WriteRoutes = { shortcuts: true, statusPut: true };
    const first = client.seed(podsResource, pod('first', 'n1'));
    client.failNext('update', new KubeApiError('forbidden', 403, 'Forbidden'), 'pods');
    await runStageActions([{ kind: 'patch', patchType: 'strategic', subresource: 'status', body: readyPatch }], first, context(client, false, routes));
    assert.equal(routes.statusPut, false);
    assert.deepEqual(client.callsOf('patch').map((c) => c.patchType), ['strategic']);
    const second = client.seed(podsResource, pod('second', 'n1'));
    await runStageActions([{ kind: 'patch', patchType: 'strategic', subresource: 'status', body: readyPatch }], second, context(client, false, routes));
    assert.equal(client.callsOf('update').length, 1, 'the second write did not try the PUT');
    assert.deepEqual(client.callsOf('patch').map((c) => c.patchType), ['strategic', 'merge']);
  });

  it('an error other than a conflict or a refusal is the stage\'s error', async () => {
    const client = new FakeKubeClient();
    const fresh = client.seed(podsResource, pod('fresh', 'n1'));
    client.failNext('update', new KubeApiError('invalid', 422, 'Invalid'), 'pods');
    await assert.rejects(play(client, fresh), /invalid/);
    assert.deepEqual(client.callsOf('patch'), []);
  });

  it('a write whose answer is read, or an impersonated one, stays a merge patch', async () => {
    const client = new FakeKubeClient();
    const fresh = client.seed(podsResource, pod('fresh', 'n1'));
    await runStageActions([{ kind: 'patch', patchType: 'strategic', subresource: 'status', body: readyPatch }], fresh, context(client, true));
    const other = client.seed(podsResource, pod('other', 'n1'));
    await runStageActions([{ kind: 'patch', patchType: 'strategic', subresource: 'status', body: readyPatch, impersonation: 'someone' }], other, context(client));
    assert.deepEqual(client.callsOf('update'), []);
    assert.deepEqual(client.callsOf('patch').map((c) => c.patchType), ['merge', 'merge']);
  });
});

describe('the answer a stage write asks for', () => {
  const labels = { kind: 'patch', patchType: 'merge', body: { metadata: { labels: { a: 'b' } } } } as const;
  const status = { kind: 'patch', patchType: 'merge', subresource: 'status', body: { status: { phase: 'Running' } } } as const;

  it('only the last write ignores its answer, and then no latest object is reported', async () => {
    const client = new FakeKubeClient();
    const object = client.seed(podsResource, pod('p', 'n1'));
    const outcome = await runStageActions([labels, { kind: 'event', type: 'Normal', reason: 'R', message: 'm' }, status, { kind: 'event', type: 'Normal', reason: 'S', message: 'm' }], object, context(client, false));
    assert.deepEqual(
      client.callsOf('patch').map((c) => c.ignoreAnswer === true),
      [false, true],
    );
    assert.equal(outcome.writes, 2);
    assert.equal(outcome.latest, undefined);
  });

  it('immediateNextStage (needLatest) keeps every answer whole and reports the latest object', async () => {
    const client = new FakeKubeClient();
    const object = client.seed(podsResource, pod('p', 'n1'));
    const outcome = await runStageActions([labels, status], object, context(client, true));
    assert.deepEqual(
      client.callsOf('patch').map((c) => c.ignoreAnswer === true),
      [false, false],
    );
    assert.equal((outcome.latest?.['status'] as { phase?: string } | undefined)?.phase, 'Running');
  });
});

describe('without shortcuts (--write-shortcuts=false)', () => {
  it('every write is the stage\'s own patch, its answer decoded', async () => {
    const client = new FakeKubeClient();
    const routes: WriteRoutes = { shortcuts: false, statusPut: false };
    const fresh = client.seed(podsResource, pod('fresh', 'n1'));
    const finalizers: StageAction = { kind: 'finalizers', patch: [{ op: 'add', path: '/metadata/finalizers', value: ['kwok.x-k8s.io/fake'] }] };
    const outcome = await runStageActions([finalizers, { kind: 'patch', patchType: 'strategic', subresource: 'status', body: readyPatch }], fresh, context(client, false, routes));
    assert.deepEqual(client.callsOf('update'), []);
    assert.deepEqual(client.callsOf('patch').map((c) => `${c.patchType} ${c.ignoreAnswer === true ? 'metadata' : 'whole'}`), ['json whole', 'strategic whole']);
    assert.equal((outcome.latest?.['status'] as { phase?: string } | undefined)?.phase, 'Running');
  });
});

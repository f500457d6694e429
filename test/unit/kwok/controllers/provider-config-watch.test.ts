import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configMapsResource, eventsResource, nodesResource } from '../../../../src/kube/client/resources.js';
import type { KubeObject } from '../../../../src/kube/client/types.js';
import { EventRecorder } from '../../../../src/kwok/controllers/event-recorder.js';
import { ProviderConfigWatch, providerWarningReason } from '../../../../src/kwok/controllers/provider-config-watch.js';
import { FakeKubeClient } from './fake-kube-client.js';
import { captureLogger, eventually, settle } from './harness.js';

const config = (namespace: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'kwok-provider-config', namespace },
  data: { config: 'readNodesFrom: configmap\nnodegroups:\n  fromNodeLabelKey: pool\nconfigmap:\n  name: kwok-provider-templates\n' },
});
const templates = (namespace: string, labels: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'kwok-provider-templates', namespace },
  data: { templates: `apiVersion: v1\nkind: Node\nmetadata:\n  name: tpl\n  labels: ${JSON.stringify(labels)}\n` },
});

function start(client: FakeKubeClient) {
  const logs: string[] = [];
  const logger = captureLogger(logs);
  const watch = new ProviderConfigWatch({ client, logger, events: new EventRecorder(client, logger, 'test'), settleMs: 10 });
  const abort = new AbortController();
  const running = watch.run(abort.signal);
  return { logs, stop: async () => (abort.abort(), await running) };
}

const warnings = (client: FakeKubeClient): KubeObject[] => client.all(eventsResource).filter((e) => e['reason'] === providerWarningReason);

describe('ProviderConfigWatch', () => {
  it('warns once, in the log and as an Event on the templates ConfigMap, when templates lack the nodegroup label', async () => {
    const client = new FakeKubeClient();
    client.seed(configMapsResource, config('autoscaling'));
    client.seed(configMapsResource, templates('autoscaling', { other: 'x' }));
    const w = start(client);
    try {
      await eventually(() => warnings(client).length === 1, 'a warning event');
      const event = warnings(client)[0]!;
      assert.equal(event['type'], 'Warning');
      assert.deepEqual((event['involvedObject'] as Record<string, unknown>)['name'], 'kwok-provider-templates');
      assert.equal(event.metadata.namespace, 'autoscaling');
      assert.match(String(event['message']), /no template node has the label "pool"/);
      assert.ok(w.logs.some((l) => /warning: cluster-autoscaler kwok provider \(autoscaling\): .*no template node has the label "pool"/.test(l)), w.logs.join('\n'));
      // An unrelated change to the ConfigMap does not repeat the same warning.
      client.modify(configMapsResource, 'autoscaling/kwok-provider-templates', (o) => (o.metadata.labels = { touched: 'yes' }));
      await settle(100);
      assert.equal(warnings(client).length, 1);
      // Fixing the templates is noticed.
      client.modify(configMapsResource, 'autoscaling/kwok-provider-templates', (o) => (o['data'] = templates('autoscaling', { pool: 'a' })['data']));
      await eventually(() => w.logs.some((l) => /problems fixed/.test(l)), 'the fix to be logged');
      assert.equal(warnings(client).length, 1);
    } finally {
      await w.stop();
    }
  });

  it('says nothing about a correct setup, or about namespaces without a provider config', async () => {
    const client = new FakeKubeClient();
    client.seed(configMapsResource, config('ok'));
    client.seed(configMapsResource, templates('ok', { pool: 'a' }));
    client.seed(configMapsResource, templates('orphan', {}));
    const w = start(client);
    try {
      await settle(200);
      assert.deepEqual(warnings(client), []);
      assert.ok(!w.logs.some((l) => /^warning/.test(l)), w.logs.join('\n'));
    } finally {
      await w.stop();
    }
  });
});

describe('ProviderConfigWatch without RBAC for ConfigMaps', () => {
  it('warns once that the check is off and does not watch', async () => {
    const { KubeApiError } = await import('../../../../src/kube/client/api-error.js');
    const client = new FakeKubeClient();
    client.failNext('list', new KubeApiError('GET /api/v1/configmaps: 403 Forbidden', 403, 'Forbidden'), 'configmaps');
    const w = start(client);
    await w.stop();
    assert.equal(w.logs.filter((l) => /the cluster-autoscaler kwok-provider check is off/.test(l)).length, 1, w.logs.join('\n'));
    assert.equal(client.callsOf('watch', 'configmaps').length, 0);
  });
});

describe('ProviderConfigWatch with readNodesFrom: cluster', () => {
  it('looks for the key on the cluster nodes (all of them, not only managed ones)', async () => {
    const client = new FakeKubeClient();
    const clusterConfig = (key: string): KubeObject => ({ ...config('ca'), data: { config: `readNodesFrom: cluster\nnodegroups:\n  fromNodeAnnotation: ${key}\n` } });
    client.seed(nodesResource, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', annotations: { 'eks.amazonaws.com/nodegroup': 'ng' } } });
    client.seed(configMapsResource, clusterConfig('eks.amazonaws.com/nodegroup'));
    const w = start(client);
    try {
      await settle(200);
      assert.deepEqual(warnings(client), []);
      client.modify(configMapsResource, 'ca/kwok-provider-config', (o) => (o['data'] = clusterConfig('other/nodegroup')['data']));
      await eventually(() => warnings(client).length === 1, 'a warning event');
      assert.match(String(warnings(client)[0]!['message']), /readNodesFrom is "cluster" but no node in the cluster has the annotation "other\/nodegroup"/);
    } finally {
      await w.stop();
    }
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseK8sYamlDocuments } from '../../../../src/gocompat/yaml/k8s-yaml.js';
import { checkProviderConfigMaps, checkProviderSetup, parseProviderConfig, parseTemplateNodes } from '../../../../src/kwok/autoscaler/provider-check.js';
import type { KubeObject } from '../../../../src/kube/client/types.js';

const labelConfig = `apiVersion: v1alpha1
readNodesFrom: configmap
nodegroups:
  fromNodeLabelKey: "kwok-nodegroup"
configmap:
  name: kwok-provider-templates
`;

const node = (name: string, labels: Record<string, string> = {}, annotations: Record<string, string> = {}): string =>
  `apiVersion: v1\nkind: Node\nmetadata:\n  name: ${name}\n  labels: ${JSON.stringify(labels)}\n  annotations: ${JSON.stringify(annotations)}\n`;

describe('kwok provider config', () => {
  it('reads the grouping key and the templates ConfigMap', () => {
    const r = parseProviderConfig(labelConfig);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.config, { readNodesFrom: 'configmap', grouping: { by: 'label', key: 'kwok-nodegroup' }, templatesConfigMap: 'kwok-provider-templates' });
  });

  it('names what the provider would refuse', () => {
    const table: [string | undefined, RegExp][] = [
      [undefined, /no "config" data key/],
      ['readNodesFrom: [', /not valid YAML/],
      ['- a', /not a YAML mapping/],
      ['readNodesFrom: file\nnodegroups: {fromNodeLabelKey: a}', /readNodesFrom is "file"/],
      ['readNodesFrom: cluster\nnodegroups: {}', /set nodegroups.fromNodeLabelKey or nodegroups.fromNodeAnnotation/],
      ['readNodesFrom: cluster\nnodegroups: {fromNodeLabelKey: a, fromNodeAnnotation: b}', /both set/],
      ['readNodesFrom: configmap\nnodegroups: {fromNodeLabelKey: a}', /configmap.name is empty/],
    ];
    for (const [text, expected] of table) {
      const r = parseProviderConfig(text);
      assert.equal(r.config, undefined, String(text));
      assert.match(r.problems.join('\n'), expected, String(text));
    }
  });
});

describe('kwok provider templates', () => {
  it('accepts a List of Nodes and a stream of Node documents', () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n- ${node('a').trimEnd().replace(/\n/g, '\n  ')}\n`;
    assert.deepEqual(parseTemplateNodes(list).nodes.map((n) => n.metadata.name), ['a']);
    assert.deepEqual(parseTemplateNodes(`${node('a')}---\n${node('b')}`).nodes.map((n) => n.metadata.name), ['a', 'b']);
  });

  it('refuses anything other than Nodes, and an empty key', () => {
    assert.match(parseTemplateNodes(`${node('a')}---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n`).problems[0]!, /something other than Nodes/);
    assert.match(parseTemplateNodes(undefined).problems[0]!, /no "templates" data key/);
  });
});

describe('checkProviderSetup', () => {
  const setup = (templates: string | undefined, config = labelConfig) => checkProviderSetup({ namespace: 'default', configData: config, templatesData: templates });

  it('is quiet when every template node carries the nodegroup label', () => {
    assert.deepEqual(setup(`${node('a', { 'kwok-nodegroup': 'a' })}---\n${node('b', { 'kwok-nodegroup': 'b' })}`).problems, []);
  });

  it('warns that nothing will scale when no template has the label', () => {
    const [problem, ...rest] = setup(node('a', { other: 'x' })).problems;
    assert.equal(rest.length, 0);
    assert.match(problem!, /^default\/kwok-provider-templates: no template node has the label "kwok-nodegroup" \(nodegroups.fromNodeLabelKey\)/);
    assert.match(problem!, /never scale up/);
    assert.match(problem!, /"a"/);
  });

  it('names the templates that will be skipped when only some lack it; an empty value counts as missing', () => {
    const problems = setup(`${node('a', { 'kwok-nodegroup': 'a' })}---\n${node('b', { 'kwok-nodegroup': '' })}---\n${node('c')}`).problems;
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /template nodes "b", "c" lack the label "kwok-nodegroup"/);
  });

  it('checks the annotation when the config groups by annotation (a label of that name does not count)', () => {
    const config = 'readNodesFrom: configmap\nnodegroups:\n  fromNodeAnnotation: eks.amazonaws.com/nodegroup\nconfigmap: {name: tpl}\n';
    assert.deepEqual(setup(node('a', {}, { 'eks.amazonaws.com/nodegroup': 'ng' }), config).problems, []);
    assert.match(setup(node('a', { 'eks.amazonaws.com/nodegroup': 'ng' }), config).problems[0]!, /^default\/tpl: no template node has the annotation "eks.amazonaws.com\/nodegroup"/);
  });

  it('reports a missing templates ConfigMap', () => {
    assert.match(setup(undefined).problems[0]!, /ConfigMap default\/kwok-provider-templates .* does not exist/);
  });

  it('with readNodesFrom: cluster, looks at the cluster nodes', () => {
    const config = 'readNodesFrom: cluster\nnodegroups: {fromNodeLabelKey: pool}\n';
    const with_ = (labels: Record<string, string>): KubeObject => ({ metadata: { name: 'n', labels } });
    assert.deepEqual(checkProviderSetup({ namespace: 'x', configData: config, clusterNodes: [with_({}), with_({ pool: 'p' })] }).problems, []);
    assert.match(checkProviderSetup({ namespace: 'x', configData: config, clusterNodes: [with_({})] }).problems[0]!, /no node in the cluster has the label "pool"/);
  });

  it('finds no problem in the example shipped in templates/', () => {
    const docs = parseK8sYamlDocuments(readFileSync(new URL('../../../../templates/autoscaler/kwok-provider-configmaps.yaml', import.meta.url), 'utf8')) as KubeObject[];
    const data = (name: string) => (docs.find((d) => d.metadata.name === name)?.['data'] ?? {}) as Record<string, string>;
    const r = checkProviderSetup({ namespace: 'default', configData: data('kwok-provider-config')['config'], templatesData: data('kwok-provider-templates')['templates'] });
    assert.deepEqual(r.problems, []);
    assert.ok(r.config);
    assert.equal(parseTemplateNodes(data('kwok-provider-templates')['templates']).nodes.length, 2);
  });
});

describe('checkProviderConfigMaps (what `kwokts autoscaler check` reads)', () => {
  const cm = (name: string, namespace: string | undefined, data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(namespace ? { namespace } : {}) }, data });
  it('pairs each config with the templates ConfigMap of its namespace and lists the nodegroups', () => {
    const objects = [
      cm('kwok-provider-config', undefined, { config: labelConfig }),
      cm('kwok-provider-templates', undefined, { templates: `${node('a', { 'kwok-nodegroup': 'g1' })}---\n${node('b', { 'kwok-nodegroup': 'g1' })}` }),
      cm('kwok-provider-config', 'other', { config: labelConfig }),
      cm('kwok-provider-templates', 'other', { templates: node('c') }),
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } },
    ];
    const checks = checkProviderConfigMaps(objects, 'ns1');
    assert.deepEqual(checks.map((c) => [c.namespace, c.nodegroups, c.problems.length]), [
      ['ns1', ['g1'], 0],
      ['other', [], 1],
    ]);
    assert.match(checks[1]!.problems[0]!, /^other\/kwok-provider-templates: no template node has the label/);
  });

  it('says the templates ConfigMap is missing when only the config is given', () => {
    const [check] = checkProviderConfigMaps([cm('kwok-provider-config', 'ns', { config: labelConfig })], 'default');
    assert.match(check!.problems[0]!, /ConfigMap ns\/kwok-provider-templates .* does not exist/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigFileError, loadKwokConfigFiles } from '../../../../src/kwok/app/config-file.js';

const FILE = `kind: Metric
apiVersion: kwok.x-k8s.io/v1alpha1
metadata: {name: m}
spec:
  path: /metrics/nodes/{nodeName}/metrics/resource
  metrics:
  - {name: scrape_error, kind: gauge, dimension: node, value: "0"}
---
kind: ResourceUsage
apiVersion: kwok.x-k8s.io/v1alpha1
metadata: {name: web-0, namespace: shop}
spec:
  usages:
  - usage: {cpu: {value: 100m}, memory: {value: 1Gi}}
---
kind: ClusterResourceUsage
apiVersion: kwok.x-k8s.io/v1alpha1
metadata: {name: all}
spec:
  selector: {matchNamespaces: [shop]}
  usages:
  - containers: [app]
    usage: {cpu: {expression: 'Quantity("1")'}}
`;

describe('kwok --config routing of Metric, ResourceUsage and ClusterResourceUsage', () => {
  it('routes each kind to its own list', () => {
    const files = loadKwokConfigFiles(['m.yaml'], () => FILE);
    assert.deepEqual(files.metrics.map((m) => [m.metadata.name, m.spec.metrics[0]?.name]), [['m', 'scrape_error']]);
    assert.deepEqual(files.resourceUsages.map((u) => u.spec.usages?.[0]?.usage?.['memory']?.value), ['1Gi']);
    assert.deepEqual(files.clusterResourceUsages.map((u) => u.spec.selector?.matchNamespaces), [['shop']]);
    assert.deepEqual(files.skippedKinds, []);
  });

  it('compiles every CEL expression at load: a typo stops the controller at start, naming file, object and field', () => {
    const bad: Array<[string, RegExp]> = [
      ['kind: Metric\nmetadata: {name: m}\nspec: {path: /metrics/x, metrics: [{name: a, kind: gauge, value: "node.name +"}]}\n', /^bad\.yaml: Metric m: spec\.metrics\.0\.value: invalid CEL expression "node\.name \+"/],
      ['kind: Metric\nmetadata: {name: m}\nspec: {path: /metrics/x, metrics: [{name: a, kind: gauge, value: "1", labels: [{name: l, value: "nosuchfn(1)"}]}]}\n', /^bad\.yaml: Metric m: spec\.metrics\.0\.labels\.0\.value: invalid CEL expression/],
      ['kind: Metric\nmetadata: {name: m}\nspec: {path: /metrics/x, metrics: [{name: a, kind: histogram, buckets: [{le: 1, value: "(("}]}]}\n', /^bad\.yaml: Metric m: spec\.metrics\.0\.buckets\.0\.value: invalid CEL expression/],
      ['kind: ClusterResourceUsage\nmetadata: {name: all}\nspec: {usages: [{usage: {cpu: {expression: "Quantity("}}}]}\n', /^bad\.yaml: ClusterResourceUsage all: spec\.usages\.0\.usage\.cpu\.expression: invalid CEL expression/],
    ];
    for (const [text, message] of bad) {
      assert.throws(() => loadKwokConfigFiles(['bad.yaml'], () => text), (e: unknown) => e instanceof ConfigFileError && message.test(e.message) && !e.message.includes('\n'), text);
    }
  });

  it("the shipped Metric and usage templates compile", () => {
    const root = join(import.meta.dirname, '..', '..', '..', '..', 'templates', 'metrics');
    for (const file of readdirSync(root).filter((f) => f.endsWith('.yaml'))) {
      const files = loadKwokConfigFiles([join(root, file)]);
      assert.ok(files.metrics.length + files.resourceUsages.length + files.clusterResourceUsages.length > 0, file);
    }
  });

  it('stops at an invalid one, naming file, object and field', () => {
    assert.throws(
      () => loadKwokConfigFiles(['bad.yaml'], () => 'kind: Metric\nmetadata: {name: m}\nspec: {path: /metrics/x, metrics: [{name: a, kind: summary}]}\n'),
      (e: unknown) => e instanceof ConfigFileError && /^bad\.yaml: Metric m: spec\.metrics\.0\.kind: /.test(e.message),
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigFileError, loadKwokConfigFiles } from '../../../../src/kwok/app/config-file.js';

const LOGS_FILE = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterLogs
metadata: {name: everything}
spec:
  logs:
  - logsFile: /var/log/fake/all.log
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Logs
metadata: {name: web-0, namespace: shop}
spec:
  logs:
  - containers: [app]
    logsFile: /var/log/fake/web.log
    follow: true
---
kind: KwokctlConfiguration
metadata: {name: m}
`;

describe('kwok --config routing of Logs and ClusterLogs', () => {
  it('routes each kind to its list and skips the kinds the controller does not use', () => {
    const files = loadKwokConfigFiles(['logs.yaml'], () => LOGS_FILE);
    assert.deepEqual(files.clusterLogs.map((l) => [l.name, l.logs[0]?.logsFile]), [['everything', '/var/log/fake/all.log']]);
    assert.deepEqual(files.logs.map((l) => [l.namespace, l.name, l.logs[0]?.follow]), [['shop', 'web-0', true]]);
    assert.deepEqual(files.skippedKinds, ['KwokctlConfiguration']);
    assert.deepEqual(files.stages, []);
  });

  it('a bad field is one error naming the file, the object and the field', () => {
    const bad = LOGS_FILE.replace('    follow: true', '    folow: true');
    assert.throws(
      () => loadKwokConfigFiles(['ok.yaml', 'logs.yaml'], (path) => (path === 'ok.yaml' ? 'kind: KwokConfiguration\noptions: {}\n' : bad)),
      (e: unknown) => e instanceof ConfigFileError && e.message === 'logs.yaml: Logs "web-0": unknown field "spec.logs[0].folow"',
    );
    assert.throws(
      () => loadKwokConfigFiles(['c.yaml'], () => 'kind: ClusterLogs\nmetadata: {name: c}\nspec: {selector: {matchNames: web}, logs: []}\n'),
      (e: unknown) => e instanceof ConfigFileError && /^c\.yaml: ClusterLogs "c": spec\.selector\.matchNames: /.test(e.message),
    );
  });
});

describe('kwok --config routing of Exec, Attach and PortForward', () => {
  it('routes each kind to its rules; a bad field names file, object and field', () => {
    const text = `kind: ClusterExec
metadata: {name: all}
spec:
  execs: [{local: {workDir: /tmp}}]
---
kind: Attach
metadata: {name: web-0, namespace: shop}
spec:
  attaches: [{containers: [app], logsFile: /a.log}]
---
kind: ClusterPortForward
metadata: {name: fwd}
spec:
  selector: {matchNamespaces: [shop]}
  forwards: [{ports: [80], command: [cat]}]
`;
    const files = loadKwokConfigFiles(['s.yaml'], () => text);
    assert.deepEqual(files.streaming.clusterExecs.map((r) => [r.name, r.entries[0]?.local?.workDir]), [['all', '/tmp']]);
    assert.deepEqual(files.streaming.attaches.map((r) => [r.namespace, r.name, r.entries[0]?.logsFile]), [['shop', 'web-0', '/a.log']]);
    assert.deepEqual(files.streaming.clusterPortForwards.map((r) => [r.matchNamespaces, r.entries[0]?.command]), [[['shop'], ['cat']]]);
    assert.deepEqual(files.skippedKinds, []);
    assert.throws(
      () => loadKwokConfigFiles(['s.yaml'], () => text.replace('ports: [80]', 'port: [80]')),
      (e: unknown) => e instanceof ConfigFileError && e.message === 's.yaml: ClusterPortForward "fwd": unknown field "spec.forwards[0].port"',
    );
  });
});

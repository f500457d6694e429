import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LogsDocumentError, logFilesOf, parseClusterLogsDocument, parseLogsDocument } from '../../../../src/kwok/api/logs-schema.js';

const logs = (spec: unknown, metadata: Record<string, unknown> = { name: 'web-0', namespace: 'shop' }) => ({ apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Logs', metadata, spec });
const clusterLogs = (spec: unknown) => ({ apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'ClusterLogs', metadata: { name: 'all' }, spec });

function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof LogsDocumentError, String(error));
    return error.message;
  }
  assert.fail('no error');
}

describe('Logs and ClusterLogs documents', () => {
  it('normalises a Logs document: defaults for every optional field', () => {
    const parsed = parseLogsDocument(logs({ logs: [{ containers: ['app'], logsFile: '/l/app.log', follow: true }, { logsFile: '/l/any.log', previousLogsFile: '/l/prev.log', containers: null }] }));
    assert.deepEqual(parsed, {
      kind: 'Logs',
      name: 'web-0',
      namespace: 'shop',
      logs: [
        { containers: ['app'], logsFile: '/l/app.log', previousLogsFile: undefined, follow: true },
        { containers: [], logsFile: '/l/any.log', previousLogsFile: '/l/prev.log', follow: false },
      ],
    });
  });

  it('puts a Logs document without a namespace in "default", as kubectl apply would', () => {
    assert.equal(parseLogsDocument(logs({ logs: [] }, { name: 'p' })).namespace, 'default');
  });

  it('reads the ClusterLogs selector; a missing selector or empty lists match everything', () => {
    const parsed = parseClusterLogsDocument(clusterLogs({ selector: { matchNamespaces: ['a'], matchNames: null }, logs: [{ logsFile: '/x' }] }));
    assert.deepEqual([parsed.matchNamespaces, parsed.matchNames], [['a'], []]);
    const open = parseClusterLogsDocument(clusterLogs({ logs: [{ logsFile: '/x' }] }));
    assert.deepEqual([open.matchNamespaces, open.matchNames], [[], []]);
  });

  it('names an unknown field with its path (a misspelling must not pass silently)', () => {
    assert.equal(problemOf(() => parseClusterLogsDocument(clusterLogs({ logs: [{ logsFile: '/a' }, { logFile: '/b' }] }))), 'ClusterLogs "all": unknown field "spec.logs[1].logFile"');
    assert.equal(problemOf(() => parseClusterLogsDocument(clusterLogs({ selector: { namespaces: ['x'] }, logs: [] }))), 'ClusterLogs "all": unknown field "spec.selector.namespaces"');
    assert.equal(problemOf(() => parseLogsDocument(logs({ logs: [], selector: {} }))), 'Logs "web-0": unknown field "spec.selector"');
  });

  it('names a field of the wrong type', () => {
    assert.match(problemOf(() => parseLogsDocument(logs({ logs: [{ logsFile: '/a', follow: 'yes please' }] }))), /^Logs "web-0": spec\.logs\[0\]\.follow: .*boolean/);
    assert.match(problemOf(() => parseLogsDocument(logs({ logs: [{ containers: 'app' }] }))), /^Logs "web-0": spec\.logs\[0\]\.containers: /);
    assert.match(problemOf(() => parseLogsDocument(logs({ logs: [] }, { namespace: 'x' }))), /^Logs "<no name>": metadata\.name: /);
  });

  it('lists every file a set of objects reads, once', () => {
    const a = parseLogsDocument(logs({ logs: [{ logsFile: '/l/a.log', previousLogsFile: '/l/a.prev' }] }));
    const b = parseClusterLogsDocument(clusterLogs({ logs: [{ logsFile: '/l/a.log' }, { follow: true }] }));
    assert.deepEqual(logFilesOf([a, b]), ['/l/a.log', '/l/a.prev']);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addStreamingDocument, emptyStreamingRules } from '../../../../src/kwok/api/streaming-schema.js';
import type { StreamingKind, StreamingRules } from '../../../../src/kwok/api/streaming-schema.js';
import { findAttach, findExec, findForward, StreamingRegistry } from '../../../../src/kwok/controllers/streaming-registry.js';
import { streamingResources } from '../../../../src/kube/client/resources.js';
import { silentLogger } from '../../../../src/util/log.js';
import { FakeKubeClient } from './fake-kube-client.js';
import { eventually } from './harness.js';

function rules(...docs: Array<[StreamingKind, unknown]>): StreamingRules {
  const out = emptyStreamingRules();
  for (const [kind, doc] of docs) addStreamingDocument(out, kind, doc);
  return out;
}

const execIn = (dir: string, containers?: string[]) => ({ ...(containers ? { containers } : {}), local: { workDir: dir } });
const dirOf = (r: ReturnType<typeof findExec>): string | undefined => (r.found ? r.entry.local?.workDir : undefined);

describe('findExec', () => {
  it('a ClusterExec without a selector applies to every pod; both selector lists must match', () => {
    const all = rules(['ClusterExec', { metadata: { name: 'all' }, spec: { execs: [execIn('/all')] } }]);
    assert.equal(dirOf(findExec(all, 'kube-system', 'p', 'c')), '/all');
    const sel = rules(['ClusterExec', { metadata: { name: 'sel' }, spec: { selector: { matchNamespaces: ['prod'], matchNames: ['web'] }, execs: [execIn('/sel')] } }]);
    assert.equal(dirOf(findExec(sel, 'prod', 'web', 'c')), '/sel');
    assert.equal(dirOf(findExec(sel, 'prod', 'db', 'c')), undefined);
    assert.equal(dirOf(findExec(sel, 'dev', 'web', 'c')), undefined);
  });

  it('an entry naming the container beats an earlier catch-all', () => {
    const r = rules(['ClusterExec', { metadata: { name: 'c' }, spec: { execs: [execIn('/any'), execIn('/side', ['sidecar'])] } }]);
    assert.equal(dirOf(findExec(r, 'd', 'p', 'sidecar')), '/side');
    assert.equal(dirOf(findExec(r, 'd', 'p', 'app')), '/any');
  });

  it('the next ClusterExec answers when one has no entry for the container', () => {
    const r = rules(
      ['ClusterExec', { metadata: { name: 'first' }, spec: { execs: [execIn('/first', ['app'])] } }],
      ['ClusterExec', { metadata: { name: 'second' }, spec: { execs: [execIn('/second')] } }],
    );
    assert.equal(dirOf(findExec(r, 'd', 'p', 'app')), '/first');
    const other = findExec(r, 'd', 'p', 'other');
    assert.ok(other.found && other.from === 'ClusterExec second');
  });

  it('an Exec for the pod decides alone; kwok\'s texts when nothing answers', () => {
    const r = rules(
      ['Exec', { metadata: { name: 'web-0', namespace: 'shop' }, spec: { execs: [execIn('/own', ['app'])] } }],
      ['ClusterExec', { metadata: { name: 'all' }, spec: { execs: [execIn('/all')] } }],
    );
    assert.equal(dirOf(findExec(r, 'shop', 'web-0', 'app')), '/own');
    assert.deepEqual(findExec(r, 'shop', 'web-0', 'sidecar'), { found: false, message: 'exec target not found for container "sidecar" in pod "shop/web-0"' });
    assert.equal(dirOf(findExec(r, 'other', 'web-0', 'app')), '/all');
    assert.deepEqual(findExec(emptyStreamingRules(), 'd', 'p', 'c'), { found: false, message: 'no exec found for container "c" in pod "d/p"' });
  });

  it('an Exec without metadata.namespace is for the default namespace', () => {
    const r = rules(['Exec', { metadata: { name: 'p' }, spec: { execs: [execIn('/x')] } }]);
    assert.equal(dirOf(findExec(r, 'default', 'p', 'c')), '/x');
  });
});

describe('findAttach', () => {
  it('skips entries without a logsFile; kwok\'s texts', () => {
    const r = rules(['ClusterAttach', { metadata: { name: 'c' }, spec: { attaches: [{ containers: [] }, { logsFile: '/a.log' }] } }]);
    const found = findAttach(r, 'd', 'p', 'c');
    assert.ok(found.found && found.entry.logsFile === '/a.log');
    const own = rules(['Attach', { metadata: { name: 'p', namespace: 'd' }, spec: { attaches: [{ containers: ['app'], logsFile: '/app.log' }] } }]);
    assert.deepEqual(findAttach(own, 'd', 'p', 'x'), { found: false, message: 'attaches target not found for container "x" in pod "d/p"' });
    assert.deepEqual(findAttach(emptyStreamingRules(), 'd', 'p', 'x'), { found: false, message: 'no attaches found for container "x" in pod "d/p"' });
  });
});

describe('findForward', () => {
  it('matches by port, with a catch-all entry; kwok\'s texts', () => {
    const r = rules(['ClusterPortForward', { metadata: { name: 'c' }, spec: { forwards: [{ command: ['cat'] }, { ports: [80], target: { port: 8080, address: '127.0.0.1' } }] } }]);
    const web = findForward(r, 'd', 'p', 80);
    assert.ok(web.found && web.entry.target?.port === 8080);
    const any = findForward(r, 'd', 'p', 9000);
    assert.ok(any.found && any.entry.command[0] === 'cat');
    const own = rules(['PortForward', { metadata: { name: 'p', namespace: 'd' }, spec: { forwards: [{ ports: [80], command: ['cat'] }] } }]);
    assert.deepEqual(findForward(own, 'd', 'p', 81), { found: false, message: 'forward not found for port 81 in pod "d/p"' });
    assert.deepEqual(findForward(emptyStreamingRules(), 'd', 'p', 81), { found: false, message: 'no forward found for port 81 in pod "d/p"' });
  });
});

describe('streaming schemas', () => {
  it('name a misspelt or ill-typed field', () => {
    assert.throws(() => rules(['Exec', { metadata: { name: 'p' }, spec: { execs: [{ local: { workdir: '/x' } }] } }]), /Exec "p": unknown field "spec\.execs\[0\]\.local\.workdir"/);
    assert.throws(() => rules(['ClusterAttach', { metadata: { name: 'a' }, spec: { selector: { matchNamespace: ['x'] }, attaches: [] } }]), /unknown field "spec\.selector\.matchNamespace"/);
    assert.throws(() => rules(['PortForward', { metadata: { name: 'f' }, spec: { forwards: [{ ports: [0] }] } }]), /PortForward "f": spec\.forwards\[0\]\.ports\[0\]/);
    // A selector belongs to the Cluster kinds only.
    assert.throws(() => rules(['Exec', { metadata: { name: 'p' }, spec: { selector: {}, execs: [] } }]), /unknown field "spec\.selector"/);
  });

  it('take YAML nulls where Go does, and keep securityContext ids', () => {
    const r = rules(['ClusterExec', { metadata: { name: 'c' }, spec: { selector: null, execs: [{ containers: null, local: { envs: [{ name: 'A', value: null }], securityContext: { runAsUser: 1000, runAsGroup: 1000 } } }] } }]);
    assert.deepEqual(r.clusterExecs[0]?.entries[0], { containers: [], local: { envs: [{ name: 'A', value: '' }], securityContext: { runAsUser: 1000, runAsGroup: 1000 } } });
  });
});

describe('StreamingRegistry watching custom resources', () => {
  it('follows adds and deletes of the watched kinds and leaves out an invalid object', async () => {
    const client = new FakeKubeClient();
    client.seed(streamingResources.ClusterExec, { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'ClusterExec', metadata: { name: 'all' }, spec: { execs: [execIn('/all')] } });
    const errors: string[] = [];
    // PortForward comes from config and stays, whatever the watch does.
    const fromConfig = rules(['ClusterPortForward', { metadata: { name: 'cfg' }, spec: { forwards: [{ command: ['cat'] }] } }]);
    const registry = new StreamingRegistry({ rules: fromConfig, logger: { ...silentLogger, error: (m: string) => errors.push(m) } });
    const abort = new AbortController();
    const running = registry.run(client, ['Exec', 'ClusterExec'], abort.signal);
    await registry.waitForSync();
    assert.equal(dirOf(findExec(registry.current(), 'd', 'p', 'c')), '/all');
    client.seed(streamingResources.Exec, { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Exec', metadata: { name: 'p', namespace: 'd' }, spec: { execs: [execIn('/own')] } });
    await eventually(() => dirOf(findExec(registry.current(), 'd', 'p', 'c')) === '/own', 'the Exec to take over');
    client.seed(streamingResources.Exec, { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Exec', metadata: { name: 'bad', namespace: 'd' }, spec: { exec: [] } });
    await eventually(() => errors.length > 0, 'the invalid object to be reported');
    assert.match(errors[0] ?? '', /Exec "bad": unknown field "spec\.exec"; ignoring it/);
    client.remove(streamingResources.Exec, 'd/p');
    await eventually(() => dirOf(findExec(registry.current(), 'd', 'p', 'c')) === '/all', 'back to the ClusterExec');
    assert.ok(findForward(registry.current(), 'd', 'p', 1).found);
    abort.abort();
    await running;
  });
});

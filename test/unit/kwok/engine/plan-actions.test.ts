/**
 * Step rendering into StageActions. Most cases inject a tiny renderer (the template text is a
 * JSON/YAML document with "$name" replaced), so they test the engine, not the template language;
 * the last block uses the real Go-template engine.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseStages, type Stage } from '../../../../src/kwok/api/index.js';
import { finalizersPatch } from '../../../../src/kwok/engine/finalizers.js';
import { StageRenderError, StageSet, planActions, type RenderTemplate } from '../../../../src/kwok/engine/index.js';

const NOW = new Date('2006-01-02T15:04:05Z');

/** "$name" → metadata.name; calls record which functions were available. */
const fakeRender: RenderTemplate = (text, data, funcs) => {
  if (text.includes('FAIL')) throw new Error('boom');
  const name = (data as { metadata: { name: string } }).metadata.name;
  const hostIP = typeof funcs.NodeIP === 'function' ? String(funcs.NodeIP()) : 'none';
  return text.replaceAll('$name', name).replaceAll('$ip', hostIP);
};

function stage(spec: Record<string, unknown>, kind = 'Pod', apiGroup = 'v1'): Stage {
  const { stages, errors } = parseStages([{ kind: 'Stage', metadata: { name: 's' }, spec: { resourceRef: { kind, apiGroup }, selector: {}, ...spec } }], 't');
  assert.deepEqual(errors, []);
  return stages[0]!;
}

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'ns', finalizers: ['a', 'b'] } };
const plan = (s: Stage, obj: unknown = pod, options: Parameters<typeof planActions>[3] = {}) => planActions(s, obj, { NodeIP: () => '10.1.1.1' }, { renderTemplate: fakeRender, ...options });

describe('step order', () => {
  test('next form: event, finalizers, patch, delete', () => {
    const s = stage({
      next: { event: { type: 'Normal', reason: 'R', message: 'M' }, finalizers: { remove: [{ value: 'a' }] }, statusTemplate: 'phase: $name', delete: true },
    });
    assert.deepEqual(plan(s), [
      { kind: 'event', type: 'Normal', reason: 'R', message: 'M' },
      { kind: 'finalizers', patch: [{ op: 'remove', path: '/metadata/finalizers/0' }] },
      { kind: 'patch', patchType: 'strategic', subresource: 'status', body: { status: { phase: 'web' } } },
      { kind: 'delete' },
    ]);
  });

  test('after a delete only events are sent; a delete ends its step', () => {
    const s = stage({ steps: [{ delete: true, patch: { template: 'x: 1' } }, { event: { type: 'Normal', reason: 'Gone' }, patch: { template: 'y: 1' } }] });
    assert.deepEqual(plan(s), [{ kind: 'delete' }, { kind: 'event', type: 'Normal', reason: 'Gone', message: '' }]);
  });

  test('empty finalizer patches are skipped; later steps see earlier finalizer changes', () => {
    const s = stage({ steps: [{ finalizers: { add: [{ value: 'a' }] } }, { finalizers: { remove: [{ value: 'b' }] } }, { finalizers: { remove: [{ value: 'a' }] } }] });
    assert.deepEqual(plan(s), [
      { kind: 'finalizers', patch: [{ op: 'remove', path: '/metadata/finalizers/1' }] },
      { kind: 'finalizers', patch: [{ op: 'remove', path: '/metadata/finalizers' }] },
    ]);
  });
});

describe('patch bodies', () => {
  test('root wraps merge/strategic bodies; without root the body is the rendered document', () => {
    assert.deepEqual(plan(stage({ steps: [{ patch: { root: 'metadata', template: 'labels: {a: $name}', type: 'merge' } }] })), [
      { kind: 'patch', patchType: 'merge', body: { metadata: { labels: { a: 'web' } } } },
    ]);
    assert.deepEqual(plan(stage({ steps: [{ patch: { template: 'spec: {x: 1}' } }] })), [{ kind: 'patch', patchType: 'strategic', body: { spec: { x: 1 } } }]);
  });

  test('json patches get /root prefixed and keep only op, path, value, from', () => {
    const s = stage({ steps: [{ patch: { root: 'status', type: 'json', template: '[{op: replace, path: /phase, value: $name, extra: 1}, {op: move, from: /a, path: /b}]' } }] });
    assert.deepEqual(plan(s), [
      {
        kind: 'patch',
        patchType: 'json',
        body: [
          { op: 'replace', path: '/status/phase', value: 'web' },
          { op: 'move', path: '/status/b', from: '/a' },
        ],
      },
    ]);
  });

  test('default type: strategic for v1 Pod/Node, merge for other kinds and for unstructured objects', () => {
    const t = (s: Stage, typedCoreKinds?: boolean): unknown => (plan(s, pod, typedCoreKinds === undefined ? {} : { typedCoreKinds })[0] as { patchType: string }).patchType;
    assert.equal(t(stage({ steps: [{ patch: { template: 'a: 1' } }] }, 'Node')), 'strategic');
    assert.equal(t(stage({ steps: [{ patch: { template: 'a: 1' } }] }, 'Pod'), false), 'merge');
    assert.equal(t(stage({ steps: [{ patch: { template: 'a: 1' } }] }, 'Deployment', 'apps/v1')), 'merge');
    assert.equal(t(stage({ steps: [{ patch: { template: 'a: 1' } }] }, 'Pod', 'example.com/v1')), 'merge');
  });

  test('impersonation and subresource are carried; rendered YAML follows sigs.k8s.io/yaml', () => {
    const s = stage({ steps: [{ patch: { subresource: 'scale', template: 'a: yes\nt: 2006-01-02T15:04:05Z', type: 'merge', impersonation: { username: 'bob' } } }] });
    assert.deepEqual(plan(s), [{ kind: 'patch', patchType: 'merge', subresource: 'scale', impersonation: 'bob', body: { a: true, t: '2006-01-02T15:04:05Z' } }]);
  });

  test('per-call funcs override the base funcs', () => {
    const s = stage({ steps: [{ patch: { template: 'ip: $ip', type: 'merge' } }] });
    assert.deepEqual(planActions(s, pod, {}, { renderTemplate: fakeRender, funcs: { NodeIP: () => 'base' } })[0], { kind: 'patch', patchType: 'merge', body: { ip: 'base' } });
    assert.deepEqual(plan(s, pod, { funcs: { NodeIP: () => 'base' } })[0], { kind: 'patch', patchType: 'merge', body: { ip: '10.1.1.1' } });
  });

  test('each pair of base and per-call function maps renders with its own functions, however often they are used', () => {
    const s = stage({ steps: [{ patch: { template: '  \nhost: {{ NodeIPWith .metadata.name | Quote }}\nbase: {{ Version | Quote }}\n\n' } }] });
    const baseA = { Version: () => 'a' };
    const baseB = { Version: () => 'b' };
    const one = { NodeIPWith: (n: unknown) => `one-${String(n)}` };
    const two = { NodeIPWith: (n: unknown) => `two-${String(n)}` };
    const body = (base: Record<string, () => string>, funcs: typeof one) => planActions(s, pod, funcs, { funcs: base })[0];
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(body(baseA, one), { kind: 'patch', patchType: 'strategic', body: { host: 'one-web', base: 'a' } });
      assert.deepEqual(body(baseA, two), { kind: 'patch', patchType: 'strategic', body: { host: 'two-web', base: 'a' } });
      assert.deepEqual(body(baseB, one), { kind: 'patch', patchType: 'strategic', body: { host: 'one-web', base: 'b' } });
    }
    // Per-call functions still win over base functions of the same name.
    assert.deepEqual(planActions(s, pod, { ...one, Version: () => 'call' }, { funcs: baseA })[0], { kind: 'patch', patchType: 'strategic', body: { host: 'one-web', base: 'call' } });
  });

  test('render failures and bad YAML are StageRenderErrors', () => {
    assert.throws(() => plan(stage({ steps: [{ patch: { template: 'FAIL' } }] })), (e: unknown) => e instanceof StageRenderError && /render template: boom/.test(e.message));
    assert.throws(() => plan(stage({ steps: [{ patch: { template: 'a: [1' } }] })), (e: unknown) => e instanceof StageRenderError && e.output === 'a: [1');
    assert.throws(() => plan(stage({ steps: [{ patch: { root: 'x', type: 'json', template: 'a: 1' } }] })), /list of operations/);
  });
});

describe('apply', () => {
  test('renders a whole object; default type apply', () => {
    const s = stage({ steps: [{ apply: { template: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-$name}' } }, { apply: { template: 'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv}\nstatus: {phase: Released}', subresource: 'status', type: 'merge' } }] });
    assert.deepEqual(plan(s), [
      { kind: 'apply', applyType: 'apply', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-web' } } },
      { kind: 'apply', applyType: 'merge', subresource: 'status', object: { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, status: { phase: 'Released' } } },
    ]);
  });
  test('apiVersion and kind are required', () => {
    assert.throws(() => plan(stage({ steps: [{ apply: { template: 'metadata: {name: x}' } }] })), /apiVersion and kind/);
  });
});

describe('finalizer patches (kwok finalizers_test.go)', () => {
  const f = (add: string[] = [], remove: string[] = [], empty = false) => ({ add, remove, empty });
  test('add', () => {
    assert.deepEqual(finalizersPatch([], f(['a'])), [{ op: 'add', path: '/metadata/finalizers', value: ['a'] }]);
    assert.deepEqual(finalizersPatch(['a'], f(['a', 'b'])), [{ op: 'add', path: '/metadata/finalizers/-', value: 'b' }]);
    assert.deepEqual(finalizersPatch(['a'], f(['a'])), []);
  });
  test('remove: highest index first; removing all becomes one remove of the list', () => {
    assert.deepEqual(finalizersPatch([], f([], ['a'])), []);
    assert.deepEqual(finalizersPatch(['a', 'b', 'c'], f([], ['a', 'c'])), [
      { op: 'remove', path: '/metadata/finalizers/2' },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ]);
    assert.deepEqual(finalizersPatch(['a', 'b'], f(['c'], ['a', 'b'])), [
      { op: 'remove', path: '/metadata/finalizers' },
      { op: 'add', path: '/metadata/finalizers', value: ['c'] },
    ]);
  });
  test('empty', () => {
    assert.deepEqual(finalizersPatch([], f([], [], true)), []);
    assert.deepEqual(finalizersPatch(['a'], f([], [], true)), [{ op: 'remove', path: '/metadata/finalizers' }]);
    assert.deepEqual(finalizersPatch(['a'], f(['b'], [], true)), [
      { op: 'remove', path: '/metadata/finalizers' },
      { op: 'add', path: '/metadata/finalizers', value: ['b'] },
    ]);
    assert.deepEqual(finalizersPatch([], f(['b'], [], true)), [{ op: 'add', path: '/metadata/finalizers', value: ['b'] }]);
  });
  test('remove of a subset keeps the adds relative to the original list', () => {
    assert.deepEqual(finalizersPatch(['a', 'b'], f(['a', 'c'], ['b'])), [
      { op: 'remove', path: '/metadata/finalizers/1' },
      { op: 'add', path: '/metadata/finalizers/-', value: 'c' },
    ]);
  });
});

describe('with the real Go-template engine', () => {
  test('a match carries its StageSet options; kwok functions run on the injected clock', () => {
    const s = stage({
      steps: [
        {
          patch: {
            root: 'status',
            subresource: 'status',
            template: '{{ $now := Now }}\nconditions:\n{{ range NodeConditions }}\n- type: {{ .type | Quote }}\n  lastHeartbeatTime: {{ $now | Quote }}\n{{ end }}\naddresses:\n{{ YAML .status.addresses 1 }}\nhostIP: {{ NodeIPWith .spec.nodeName | Quote }}\ncount: {{ len .spec.containers }}',
          },
        },
      ],
    });
    const set = new StageSet([s], { now: () => NOW, random: () => 0 });
    const obj = { metadata: { name: 'n' }, spec: { nodeName: 'node-1', containers: [{}, {}] }, status: { addresses: [{ type: 'InternalIP', address: '1.2.3.4' }] } };
    const match = set.match(obj)!;
    const [action] = planActions(match, obj, { NodeIPWith: (node: unknown) => `ip-of-${String(node)}` });
    assert.ok(action?.kind === 'patch');
    const status = (action.body as { status: Record<string, unknown> }).status;
    assert.deepEqual(
      (status.conditions as { type: string }[]).map((c) => c.type),
      ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable'],
    );
    assert.match(String((status.conditions as { lastHeartbeatTime: string }[])[0]!.lastHeartbeatTime), /^2006-01-02T\d\d:04:05/);
    assert.equal(Date.parse(String((status.conditions as { lastHeartbeatTime: string }[])[0]!.lastHeartbeatTime)), NOW.getTime());
    assert.deepEqual(status.addresses, [{ type: 'InternalIP', address: '1.2.3.4' }]);
    assert.equal(status.hostIP, 'ip-of-node-1');
    assert.equal(status.count, 2);
  });
});

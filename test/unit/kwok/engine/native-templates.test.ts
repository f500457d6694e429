/**
 * The TypeScript versions of the built-in node-initialize and pod-ready templates
 * (src/kwok/engine/native-templates.ts) against the Go template engine and YAML reader: over a
 * few thousand generated objects, with ordinary and odd field values, each either declines or
 * gives exactly the engine's value (same keys in the same order); where the engine fails, it
 * declines. Ordinary objects must not be declined, or the fast path would silently stop serving.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { kwokFuncs, typed, type FuncMap } from '../../../../src/gocompat/gotpl/index.js';
import { parseYamlDocuments } from '../../../../src/gocompat/yaml/index.js';
import { renderToJson, renderWithGotpl, type RenderTemplate } from '../../../../src/kwok/engine/render.js';
import { nativeRender, nativeRendererFor } from '../../../../src/kwok/engine/native-templates.js';

/** The patch template of stage `name` in templates/stages/`file`, as a Stage holds it. */
function builtinTemplate(file: string, name: string): string {
  const docs = parseYamlDocuments(readFileSync(new URL(`../../../../templates/stages/${file}`, import.meta.url), 'utf8')) as Array<{
    metadata: { name: string };
    spec: { steps: Array<{ patch?: { template?: string } }> };
  }>;
  const template = docs.find((d) => d.metadata.name === name)?.spec.steps[0]?.patch?.template;
  assert.ok(template, `${file} has stage ${name} with a patch template`);
  return template;
}

const POD_READY = builtinTemplate('pod-fast.yaml', 'pod-ready');
const NODE_INITIALIZE = builtinTemplate('node-fast.yaml', 'node-initialize');

/** Not renderWithGotpl itself, so renderToJson takes the engine's path. */
const engineOnly: RenderTemplate = (text, data, funcs) => renderWithGotpl(text, data, funcs);

type Outcome = { kind: 'value'; json: string } | { kind: 'error' };

function viaEngine(template: string, object: unknown, funcs: FuncMap): Outcome {
  try {
    return { kind: 'value', json: JSON.stringify(renderToJson(engineOnly, template, object, funcs)) };
  } catch {
    return { kind: 'error' };
  }
}

/** Deterministic pseudo-random choices, so a failure names an object that can be rebuilt. */
function chooser(seed: number): <T>(options: readonly T[]) => T {
  let state = seed >>> 0;
  return (options) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return options[state % options.length]!;
  };
}

const base = kwokFuncs({ now: () => new Date('2026-11-29T10:11:12.345678Z'), timeZone: 'UTC' });

/** The controllers' per-object functions with the signatures engine-adapter declares. */
function objectFuncs(values: { nodeIPs: string[]; podIPs: string[]; nodeIP: string; nodeName: string; nodePort: number }): FuncMap {
  return {
    ...base,
    NodeIP: typed([], () => values.nodeIP),
    NodeName: typed([], () => values.nodeName),
    NodePort: typed([], () => values.nodePort),
    NodeIPsWith: typed(['string'], () => values.nodeIPs),
    PodIPsWith: typed(['string', 'bool', 'string', 'string', 'string'], () => values.podIPs),
  };
}

const ODD_STRINGS = ['', 'a"b', 'back\\slash', 'tab\there', 'café', '<&>', '123', 'true', 'null', '~', ' lead', 'trail ', '#x', 'a: b', '- x', '{x}'];

function assertSame(template: string, object: unknown, funcs: FuncMap, label: string): 'native' | 'declined' {
  const expected = viaEngine(template, object, funcs);
  const native = nativeRender(template, object, funcs);
  if (native === undefined) return 'declined';
  assert.equal(expected.kind, 'value', `${label}: the engine fails on ${JSON.stringify(object)} but the native renderer gave ${JSON.stringify(native)}`);
  assert.equal(JSON.stringify(native), (expected as { json: string }).json, `${label}: ${JSON.stringify(object)}`);
  return 'native';
}

describe('built-in templates have their native renderers', () => {
  test('pod-ready and node-initialize are found by their text; other text is not', () => {
    assert.ok(nativeRendererFor(POD_READY), 'templates/stages/pod-fast.yaml pod-ready changed: check renderPodReady and update its SHA-256');
    assert.ok(nativeRendererFor(NODE_INITIALIZE), 'templates/stages/node-fast.yaml node-initialize changed: check renderNodeInitialize and update its SHA-256');
    assert.equal(nativeRendererFor(POD_READY.replace('Running', 'Runnin')), undefined);
    assert.equal(nativeRendererFor('phase: Running'), undefined);
  });

  test('surrounding whitespace does not matter, as the engine trims it', () => {
    assert.ok(nativeRendererFor(`\n  ${POD_READY}\n\n`));
  });
});

describe('pod-ready: native value equals the engine value', () => {
  test('ordinary pods are rendered natively', () => {
    const funcs = objectFuncs({ nodeIPs: ['10.0.0.1'], podIPs: ['10.244.0.7'], nodeIP: '10.0.0.1', nodeName: 'n', nodePort: 10250 });
    const pod = {
      metadata: { name: 'web-1', namespace: 'default', uid: 'u-1', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { nodeName: 'kwok-node-0', containers: [{ name: 'app', image: 'nginx:1.25' }] },
      status: { phase: 'Pending' },
    };
    assert.equal(assertSame(POD_READY, pod, funcs, 'ordinary'), 'native');
    const full = {
      ...pod,
      spec: {
        ...pod.spec,
        hostNetwork: true,
        readinessGates: [{ conditionType: 'example.com/ready' }],
        initContainers: [{ name: 'sidecar', image: 'envoy', restartPolicy: 'Always' }, { name: 'init', image: 'busybox' }],
      },
    };
    assert.equal(assertSame(POD_READY, full, objectFuncs({ nodeIPs: ['10.0.0.1', 'fd00::1'], podIPs: ['10.0.0.1', 'fd00::1'], nodeIP: '', nodeName: '', nodePort: 0 }), 'dual-stack'), 'native');
  });

  test('generated pods, odd values included', () => {
    const pick = chooser(14);
    /** Mostly an ordinary value, one time in six an odd one. */
    const usually = <T, U>(ordinary: T, odd: readonly U[]): T | U => (pick([0, 1, 2, 3, 4, 5]) === 0 ? pick(odd) : ordinary);
    const names = [undefined, null, 7, ...ODD_STRINGS];
    const container = (): unknown =>
      usually({ name: usually('app', names), image: usually('nginx:1.25', names), restartPolicy: usually(undefined, [null, 'Always', 'Never', '', 3, 'always']) }, ['not-a-map', null, {}]);
    const list = (): unknown => usually(pick([[], [container()], [container(), container(), container()]]), [undefined, null, {}, 'x', { a: container() }]);
    let native = 0;
    for (let i = 0; i < 3000; i++) {
      const pod: Record<string, unknown> = {
        metadata: usually({ name: usually('p', names), namespace: usually('ns', names), uid: usually('u-1', names) }, [undefined, null, 'x']),
        spec: usually(
          {
            nodeName: usually('node-0', [undefined, null, '', 5, 'café']),
            hostNetwork: usually(pick([undefined, false, true]), [null, 'true', 0, 1]),
            containers: list(),
            initContainers: usually(undefined, [list()]),
            readinessGates: usually(undefined, [null, [], [{ conditionType: usually('example.com/gate', names) }], [{}], ['gate'], { a: { conditionType: 'x' } }]),
          },
          [undefined, null],
        ),
      };
      const ips = (): string[] => pick([[], ['10.0.0.1'], ['10.0.0.1', 'fd00::1']]);
      const funcs = objectFuncs({ nodeIPs: ips(), podIPs: ips(), nodeIP: '', nodeName: '', nodePort: 0 });
      if (assertSame(POD_READY, pod, funcs, `pod ${i}`) === 'native') native++;
    }
    assert.ok(native > 600, `only ${native} of 3000 generated pods were rendered natively`);
  });
});

describe('node-initialize: native value equals the engine value', () => {
  test('ordinary nodes are rendered natively', () => {
    const funcs = objectFuncs({ nodeIPs: [], podIPs: [], nodeIP: '10.0.0.5', nodeName: 'kwok-node-5', nodePort: 10250 });
    const fresh = { metadata: { name: 'kwok-node-5', creationTimestamp: '2026-01-01T00:00:00Z' }, status: {} };
    assert.equal(assertSame(NODE_INITIALIZE, fresh, funcs, 'fresh node'), 'native');
    const described = {
      metadata: { name: 'kwok-node-5', creationTimestamp: '2026-01-01T00:00:00Z' },
      status: {
        addresses: [{ type: 'InternalIP', address: '10.0.0.9' }],
        allocatable: { cpu: '32', memory: '256Gi', pods: '110', 'hugepages-2Mi': '0', 'example.com/gpu': '8', 'ephemeral-storage': '100G' },
        capacity: { cpu: '32', memory: '256Gi', pods: '110' },
        nodeInfo: { architecture: 'arm64', kubeletVersion: 'fake', bootID: '' },
      },
    };
    assert.equal(assertSame(NODE_INITIALIZE, described, funcs, 'described node'), 'native');
  });

  test('generated nodes, odd values included', () => {
    const pick = chooser(4);
    const usually = <T, U>(ordinary: T, odd: readonly U[]): T | U => (pick([0, 1, 2, 3, 4, 5]) === 0 ? pick(odd) : ordinary);
    const quantity = () => usually(pick(['1', '4', '110', '1k', '1Ti', '250m', '1.5', '16Gi', '1M']), ['1e3', '0x10', 'true', '1:20', '', '1_000', '.5', '+1', '08', '-1', '1Ki', '5E', 4, null, 'x y', '1e', '0.', 'Inf']);
    const resourceName = () => usually(pick(['cpu', 'memory', 'pods', 'ephemeral-storage', 'example.com/gpu', 'hugepages-1Gi']), ['a b', 'true', '1', 'Z', '_x', 'null', '']);
    const resources = () => usually(Object.fromEntries([[resourceName(), quantity()], [resourceName(), quantity()], [resourceName(), quantity()]]), [undefined, null, {}, 'x', []]);
    const address = () => usually(pick([{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'h' }, { type: 'ExternalIP', address: '1.2.3.4' }]), [{ type: 5 }, {}, 'x', null]);
    const infoValue = () => usually(pick([undefined, '', 'arm64', 'v1.36.0']), [null, 3, 'café', false]);
    const info = () => usually({ architecture: infoValue(), osImage: infoValue(), kubeletVersion: infoValue(), bootID: infoValue() }, [undefined, null, 'x', {}]);
    let native = 0;
    for (let i = 0; i < 3000; i++) {
      const node: Record<string, unknown> = {
        metadata: usually({ name: 'n', creationTimestamp: usually('2026-01-01T00:00:00Z', [undefined, null, '', 5, 'café']) }, [undefined, null]),
        status: usually({ addresses: usually(pick([[], [address()], [address(), address()]]), [undefined, null, 'x']), allocatable: resources(), capacity: resources(), nodeInfo: info() }, [undefined, null, {}]),
      };
      const funcs = objectFuncs({ nodeIPs: [], podIPs: [], nodeIP: pick(['', '10.0.0.2']), nodeName: pick(['', 'node-2', 'a"b']), nodePort: pick([0, 10250, -1]) });
      if (assertSame(NODE_INITIALIZE, node, funcs, `node ${i}`) === 'native') native++;
    }
    assert.ok(native > 300, `only ${native} of 3000 generated nodes were rendered natively`);
  });
});

describe('the engine still reports what the native renderers decline', () => {
  test('a pod without spec.nodeName fails in the engine, as before', () => {
    const funcs = objectFuncs({ nodeIPs: [], podIPs: [], nodeIP: '', nodeName: '', nodePort: 0 });
    assert.throws(() => renderToJson(renderWithGotpl, POD_READY, { metadata: { name: 'p' }, spec: {} }, funcs), { name: 'StageRenderError' });
  });

  test('a missing per-object function makes the native renderer decline, so the engine reports it', () => {
    assert.equal(nativeRender(POD_READY, { spec: { nodeName: 'n' } }, base), undefined);
    assert.equal(nativeRender(NODE_INITIALIZE, { status: {} }, base), undefined);
  });
});

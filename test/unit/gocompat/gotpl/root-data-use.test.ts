/**
 * Templates copy only the parts of their data they can read (root-data-use.ts). The analysis is
 * checked case by case, and every stage template this project ships or copies from kwok must
 * render the same from the partial copy as from a whole one (prepareData).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { compileTemplate, kwokFuncs, prepareData, type FuncMap } from '../../../../src/gocompat/gotpl/index.js';
import { parseTemplate } from '../../../../src/gocompat/gotpl/parse.js';
import { rootDataPaths, type DataPaths } from '../../../../src/gocompat/gotpl/root-data-use.js';
import { realisticPod } from '../../kwok/fixtures/realistic-pod.js';
import { NODE_HEARTBEAT_WITH_LEASE, NODE_INITIALIZE, POD_COMPLETE, POD_READY } from './kwok-upstream-templates.js';

function paths(text: string): unknown {
  const found = rootDataPaths(parseTemplate('_', text, { hasFunction: () => true }));
  const show = (level: DataPaths | null): unknown => (level === null ? '*' : Object.fromEntries([...level].map(([k, v]) => [k, show(v)])));
  return found === undefined ? 'all' : show(found);
}

describe('what of its data a template can read', () => {
  it('field chains on the root, from dot or from $', () => {
    assert.deepEqual(paths('{{ .spec.nodeName }} {{ $.metadata.name }} {{ .spec }}'), { spec: '*', metadata: { name: '*' } });
    assert.deepEqual(paths('{{ .a.b.c }}{{ .a.b }}'), { a: { b: '*' } });
    assert.deepEqual(paths('plain text'), {});
  });
  it('inside with and range, dot is the pipeline value; their else branches keep the outer dot', () => {
    assert.deepEqual(paths('{{ with .status }}{{ .phase }}{{ else }}{{ .spec.x }}{{ end }}'), { status: '*', spec: { x: '*' } });
    assert.deepEqual(paths('{{ range .spec.containers }}{{ .name }}{{ $.metadata.uid }}{{ end }}'), { spec: { containers: '*' }, metadata: { uid: '*' } });
    assert.deepEqual(paths('{{ if .a }}{{ .b }}{{ else }}{{ .c }}{{ end }}'), { a: '*', b: '*', c: '*' });
    assert.deepEqual(paths('{{ with F }}{{ .x }}{{ end }}'), {});
  });
  it('arguments, parenthesised pipelines, variables and chains', () => {
    assert.deepEqual(paths('{{ $x := .spec.containers }}{{ $x.name }}{{ F (G .a) .b }}{{ (.c).d }}'), { spec: { containers: '*' }, a: '*', b: '*', c: '*' });
  });
  it('the data whole: dot or $ as a value, {{template}}, {{define}}', () => {
    assert.equal(paths('{{ . }}'), 'all');
    assert.equal(paths('{{ toJson $ }}'), 'all');
    assert.equal(paths('{{ $x := . }}{{ $x.a }}'), 'all');
    assert.equal(paths('{{ with .a }}{{ $ }}{{ end }}'), 'all');
    assert.equal(paths('{{ template "t" .a }}'), 'all');
    assert.equal(paths('{{ define "t" }}{{ .x }}{{ end }}{{ .a }}'), 'all');
    assert.deepEqual(paths('{{ with .a }}{{ . }}{{ end }}'), { a: '*' });
  });
  it('a template that edits what it read leaves the caller object alone', () => {
    const pod = realisticPod();
    const out = compileTemplate('{{ $_ := set .metadata "name" "changed" }}{{ .metadata.name }}').execute(pod, kwokFuncs());
    assert.equal(out, 'changed');
    assert.deepEqual(pod, realisticPod());
  });
});

/** Every template under templates/stages, plus kwok's own. */
function shippedTemplates(): { name: string; text: string }[] {
  const dir = join(import.meta.dirname, '../../../../templates/stages');
  const out = [
    { name: 'kwok pod-ready', text: POD_READY },
    { name: 'kwok pod-complete', text: POD_COMPLETE },
    { name: 'kwok node-initialize', text: NODE_INITIALIZE },
    { name: 'kwok node-heartbeat-with-lease', text: NODE_HEARTBEAT_WITH_LEASE },
  ];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    for (const document of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const stage = document.toJSON() as { metadata?: { name?: string }; spec?: { steps?: { patch?: { template?: string }; apply?: { template?: string } }[] } } | null;
      for (const [index, step] of (stage?.spec?.steps ?? []).entries()) {
        for (const template of [step.patch?.template, step.apply?.template]) {
          if (template) out.push({ name: `${file} ${stage?.metadata?.name ?? ''} step ${index}`, text: template.trim() });
        }
      }
    }
  }
  return out;
}

const objectFuncs: FuncMap = {
  NodeIP: () => '10.0.0.2',
  NodeName: () => 'node-0',
  NodePort: () => 10250,
  PodIP: () => '10.0.1.7',
  NodeIPWith: () => '10.0.0.2',
  NodeIPsWith: () => ['10.0.0.2', 'fd00::2'],
  PodIPWith: () => '10.0.1.7',
  PodIPsWith: () => ['10.0.1.7', 'fd00:1::7'],
};

function objects(): Record<string, unknown>[] {
  const pod = realisticPod();
  const spec = pod['spec'] as Record<string, unknown>;
  const withInit = structuredClone(pod);
  Object.assign(withInit['spec'] as object, {
    initContainers: [{ name: 'init', image: 'busybox', restartPolicy: 'Always' }, { name: 'setup', image: 'busybox' }],
    readinessGates: [{ conditionType: 'example.com/ready' }],
    hostNetwork: true,
  });
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-0', creationTimestamp: '2026-11-24T17:00:00Z', labels: { 'type': 'kwok' } },
    spec: { podCIDR: '10.0.1.0/24' },
    status: {
      addresses: [{ type: 'InternalIP', address: '10.0.0.2' }],
      allocatable: { cpu: '32', memory: '256Gi', pods: '110' },
      capacity: { cpu: '32', memory: '256Gi', pods: '110' },
      nodeInfo: { architecture: 'amd64', kubeletVersion: 'fake', operatingSystem: 'linux' },
    },
  };
  return [pod, withInit, { ...pod, spec: { ...spec, containers: 'not a list' } }, node, { metadata: null }, {}];
}

describe('a partial copy renders as the whole object does', () => {
  const funcs: FuncMap = { ...kwokFuncs({ now: () => new Date('2026-11-25T03:00:00.123Z'), startTime: new Date('2026-11-25T00:00:00Z') }), ...objectFuncs };
  const render = (text: string, data: unknown): string => {
    try {
      return compileTemplate(text).execute(data, funcs);
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  };
  const templates = shippedTemplates();
  it('covers the shipped stage templates', () => {
    assert.ok(templates.length >= 15, `only ${templates.length} templates found`);
  });
  for (const { name, text } of templates) {
    it(name, () => {
      for (const object of objects()) assert.equal(render(text, object), render(text, prepareData(object)), `on ${JSON.stringify(object).slice(0, 80)}`);
    });
  }
});

/**
 * kwok's stage testdata harness (kustomize/stage/stage_test.go) re-run against our default stages
 * (templates/stages) and the real Go-template engine: every fixture input must give exactly the
 * expected stages, delays, weights and actions. Also covers `--steps` replay and the stand-ins.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadKwokDocuments, parseK8sYaml } from '../../../src/kwok/api/index.js';
import type { Stage } from '../../../src/kwok/api/index.js';
import { goSyntax, type FuncMap } from '../../../src/gocompat/gotpl/index.js';
import { formatRFC3339Nano, testStages } from '../../../src/kwok/stage-test.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = join(root, 'test/unit/kwok/fixtures/stages');
const NOW = new Date('2006-01-02T15:04:05Z');

/** kwok's wrapFunction: "<Name>" or "<Name(arg, ...)>" with Go %#v arguments. */
function stub(name: string): (...args: unknown[]) => string {
  return (...args) => (args.length === 0 ? `<${name}>` : `<${name}(${args.map((a) => goSyntax(a) || '""').join(', ')})>`);
}

function pairStub(name: string): (...args: unknown[]) => string[] {
  const inner = stub(name);
  return (...args) => {
    const call = inner(...args).slice(1, -1);
    return [`<0 of ${call}>`, `<1 of ${call}>`];
  };
}

const KWOK_STUBS: FuncMap = {
  ...Object.fromEntries(['NodeIP', 'NodeName', 'NodePort', 'PodIP', 'NodeIPWith', 'PodIPWith', 'Now', 'now', 'Version'].map((n) => [n, stub(n)])),
  NodeIPsWith: pairStub('NodeIPsWith'),
  PodIPsWith: pairStub('PodIPsWith'),
};

function loadStages(set: string): Stage[] {
  const file = join(root, 'templates/stages', `${set}.yaml`);
  const loaded = loadKwokDocuments(readFileSync(file, 'utf8'), file);
  assert.deepEqual(loaded.stageErrors.map((e) => e.message), []);
  return loaded.stages;
}

/** bigint → number where exact, so reports compare with parsed YAML. */
function plain(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x)));
}

function readYaml(path: string): Record<string, unknown> {
  return parseK8sYaml(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

describe('kwok stage testdata through stage-test', () => {
  const sets = readdirSync(fixtures).sort();
  test('every default stage file has fixtures', () => {
    const files = readdirSync(join(root, 'templates/stages')).map((f) => f.replace(/\.yaml$/, ''));
    assert.deepEqual([...files].sort(), sets);
  });
  for (const set of sets) {
    const inputs = readdirSync(join(fixtures, set)).filter((f) => f.endsWith('.input.yaml')).sort();
    for (const input of inputs) {
      test(`${set}/${input.replace('.input.yaml', '')}`, () => {
        const object = readYaml(join(fixtures, set, input));
        const expected = readYaml(join(fixtures, set, input.replace('.input.yaml', '.output.yaml')));
        const report = testStages(loadStages(set), object, { now: NOW, funcs: KWOK_STUBS, typedCoreKinds: false });
        assert.deepEqual(plain(report), expected);
      });
    }
  }
});

describe('stage-test replay and stand-ins', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: 'u1', deletionTimestamp: undefined as string | undefined },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'i' }] },
  };

  test('general pod lifecycle walks create → ready with deterministic stand-ins', () => {
    const report = testStages(loadStages('pod-general'), structuredClone(pod), { now: NOW, steps: 3 });
    assert.deepEqual(
      report.steps?.map((s) => s.stage),
      ['pod-create', 'pod-ready', undefined],
    );
    const status = report.object?.status as Record<string, unknown>;
    assert.equal(status.phase, 'Running');
    assert.equal(status.hostIP, '10.0.0.1');
    assert.equal(status.podIP, '10.0.0.2');
    // Real controller semantics: patches without a type are strategic for pods, so pod-ready's
    // Ready/ContainersReady merge into pod-create's conditions by type instead of replacing them.
    const conditions = status.conditions as { type: string; status: string }[];
    assert.deepEqual(
      conditions.map((c) => `${c.type}=${c.status}`),
      ['Initialized=True', 'Ready=True', 'ContainersReady=True'],
    );
    // The clock advances by the chosen delay (the lower bound, 1 s, with random = 0) per step.
    assert.equal(status.startTime, formatRFC3339Nano(new Date(NOW.getTime() + 2000)));
  });

  test('a delete ends the replay', () => {
    const deleting = structuredClone(pod);
    deleting.metadata.deletionTimestamp = '2006-01-02T15:04:05Z';
    const report = testStages(loadStages('pod-fast'), deleting, { now: NOW, steps: 5 });
    assert.equal(report.steps?.length, 1);
    assert.equal(report.steps?.[0]?.deleted, true);
    assert.equal(report.object, undefined);
  });

  test('--cidr moves the stand-in addresses', () => {
    // kwok's pod-ready takes pending pods (the apiserver sets phase Pending on create).
    const report = testStages(loadStages('pod-fast'), { ...structuredClone(pod), status: { phase: 'Pending' } }, { now: NOW, cidr: '192.168.7.0/24' });
    const data = report.stages[0]?.next[0]?.data as { status: { hostIP: string; podIP: string } };
    assert.deepEqual([data.status.hostIP, data.status.podIP], ['192.168.7.1', '192.168.7.2']);
  });

  test('an object without apiVersion/kind is a usage error', () => {
    assert.throws(() => testStages([], { metadata: {} }, { now: NOW }), /apiVersion and kind/);
  });

  test('Now is RFC3339Nano with trailing zeros trimmed', () => {
    assert.equal(formatRFC3339Nano(new Date('2006-01-02T15:04:05.120Z')), '2006-01-02T15:04:05.12Z');
    assert.equal(formatRFC3339Nano(NOW), '2006-01-02T15:04:05Z');
  });
});

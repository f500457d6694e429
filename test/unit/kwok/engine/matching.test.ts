/** Selector semantics (kwok's expression/selector.go and lifecycle.match). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseStages, type Stage } from '../../../../src/kwok/api/index.js';
import { StageSet, type StageEvaluationError } from '../../../../src/kwok/engine/index.js';

const NOW = new Date('2006-01-02T15:04:05Z');

function stage(name: string, spec: Record<string, unknown>): Stage {
  const { stages, errors } = parseStages([{ kind: 'Stage', metadata: { name }, spec: { resourceRef: { kind: 'Pod' }, selector: {}, ...spec } }], 't');
  assert.deepEqual(errors, []);
  return stages[0]!;
}

function jq(key: string, operator: string, values?: string[]): Stage {
  return stage('s', { selector: { matchExpressions: [{ jq: values ? { key, operator, values } : { key, operator } }] } });
}

function matches(s: Stage, obj: unknown, onError?: (e: StageEvaluationError) => void): boolean {
  const opts = onError ? { now: () => NOW, random: () => 0, onError } : { now: () => NOW, random: () => 0 };
  return new StageSet([s], opts).match(obj) !== undefined;
}

const pod = {
  metadata: { name: 'p', labels: { app: 'web', tier: '' }, annotations: { a: 'x' }, ownerReferences: [{ kind: 'ReplicaSet' }, { kind: 'Job' }] },
  spec: { replicas: 3, hostNetwork: false, containers: [{ name: 'a' }, { name: 'b' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
};

describe('matchLabels / matchAnnotations', () => {
  test('every pair must be present and equal; {} matches everything', () => {
    assert.equal(matches(stage('s', { selector: { matchLabels: { app: 'web' } } }), pod), true);
    assert.equal(matches(stage('s', { selector: { matchLabels: { app: 'web', tier: '' } } }), pod), true);
    assert.equal(matches(stage('s', { selector: { matchLabels: { app: 'db' } } }), pod), false);
    assert.equal(matches(stage('s', { selector: { matchLabels: { missing: '' } } }), pod), false);
    assert.equal(matches(stage('s', { selector: { matchAnnotations: { a: 'x' } } }), pod), true);
    assert.equal(matches(stage('s', { selector: { matchAnnotations: { a: 'y' } } }), pod), false);
    assert.equal(matches(stage('s', { selector: { matchLabels: {} } }), { metadata: {} }), true);
    assert.equal(matches(stage('s', { selector: { matchLabels: { a: 'b' } } }), { metadata: {} }), false);
  });
});

describe('jq requirements', () => {
  const table: [string, string, string[] | undefined, boolean][] = [
    ['.status.phase', 'In', ['Running'], true],
    ['.status.phase', 'In', ['Pending'], false],
    ['.status.phase', 'NotIn', ['Pending'], true],
    ['.status.conditions.[] | select( .type == "Ready" ) | .status', 'In', ['True'], true],
    ['.status.conditions.[] | select( .type == "Ready" ) | .status', 'NotIn', ['True'], false],
    ['.status.conditions.[] | select( .type == "Initialized" ) | .status', 'NotIn', ['True'], true],
    ['.metadata.ownerReferences.[].kind', 'In', ['Job'], true],
    ['.metadata.deletionTimestamp', 'DoesNotExist', undefined, true],
    ['.metadata.deletionTimestamp', 'Exists', undefined, false],
    ['.metadata.labels["tier"]', 'Exists', undefined, true],
    ['.metadata.labels["tier"]', 'In', [''], true],
    // booleans compare as "true"/"false"
    ['.spec.hostNetwork', 'In', ['false'], true],
    // numbers read from the object are float64 in gojq: never equal to a value, so NotIn is always true
    ['.spec.replicas', 'In', ['3'], false],
    ['.spec.replicas', 'NotIn', ['3'], true],
    ['.spec.replicas', 'Exists', undefined, true],
    // ...but integers made by jq compare as text, and tostring works
    ['.spec.containers | length', 'In', ['2'], true],
    ['.spec.replicas | tostring', 'In', ['3'], true],
    ['1 + 1', 'In', ['2'], true],
    // objects and arrays never match
    ['.spec.containers', 'In', ['[]'], false],
    // a runtime error is "no value": In/Exists false, NotIn/DoesNotExist true
    ['.status.phase.x', 'In', ['Running'], false],
    ['.status.phase.x', 'NotIn', ['Running'], true],
    ['.status.phase.x', 'DoesNotExist', undefined, true],
    ['(.status.phase, .status.phase.x)', 'In', ['Running'], false],
    // null outputs never exist
    ['.missing', 'Exists', undefined, false],
    ['.missing, .status.phase', 'Exists', undefined, true],
  ];
  for (const [key, op, values, want] of table) {
    test(`${key} ${op} ${values ? JSON.stringify(values) : ''} → ${want}`, () => assert.equal(matches(jq(key, op, values), pod), want));
  }
});

describe('CEL requirements', () => {
  test('bool results select; functions see the injected clock', () => {
    const created = { ...pod, metadata: { ...pod.metadata, creationTimestamp: '2006-01-02T15:03:05Z' } };
    const cel = (expression: string): Stage => stage('s', { selector: { matchExpressions: [{ cel: { expression } }] } });
    assert.equal(matches(cel('self.status.phase == "Running"'), pod), true);
    assert.equal(matches(cel("self.status.phase in ['Bound','Released']"), pod), false);
    assert.equal(matches(cel('!has(self.metadata.deletionTimestamp)'), pod), true);
    assert.equal(matches(cel('self.spec.replicas == 3 && self.spec.replicas * 2 == 6'), pod), true);
    assert.equal(matches(cel('SinceSecond(self) == 60.0 && self.SinceSecond() == 60.0'), created), true);
    assert.equal(matches(cel('Now() == timestamp("2006-01-02T15:04:05Z")'), pod), true);
    assert.equal(matches(cel('Quantity("1Gi") == 1073741824.0 && "100m".Quantity() == 0.1'), pod), true);
  });

  test('an error (or a non-bool) stops the whole match and is reported', () => {
    const errors: string[] = [];
    const failing = stage('failing', { selector: { matchExpressions: [{ cel: { expression: 'self.status.missing == "x"' } }] } });
    const plain = stage('plain', {});
    const set = new StageSet([plain, failing], { now: () => NOW, random: () => 0, onError: (e) => errors.push(e.message) });
    assert.equal(set.match(pod), undefined);
    assert.match(errors[0]!, /stage "failing"/);
    assert.throws(() => set.listAllPossible(pod), /stage "failing"/);
    const notBool = stage('n', { selector: { matchExpressions: [{ cel: { expression: '1 + 1' } }] } });
    assert.throws(() => new StageSet([notBool], { now: () => NOW, random: () => 0 }).listAllPossible(pod), /want bool/);
  });
});

describe('resources', () => {
  test('forResource keeps only exact resourceRef matches', () => {
    const node = parseStages([{ kind: 'Stage', metadata: { name: 'n' }, spec: { resourceRef: { kind: 'Node' }, selector: {} } }], 't').stages[0]!;
    const deploy = parseStages([{ kind: 'Stage', metadata: { name: 'd' }, spec: { resourceRef: { apiGroup: 'apps/v1', kind: 'Deployment' }, selector: {} } }], 't').stages[0]!;
    const set = new StageSet([node, deploy, stage('p', {})], { now: () => NOW, random: () => 0 });
    assert.deepEqual(
      set.forResource('v1', 'Node').stages.map((s) => s.name),
      ['n'],
    );
    assert.deepEqual(
      set.forResource('apps/v1', 'Deployment').stages.map((s) => s.name),
      ['d'],
    );
    assert.equal(set.forResource('v1', 'Pod'), set.forResource('v1', 'Pod'));
  });

  test('raw documents are parsed; an invalid one throws its UsageError', () => {
    const doc = { kind: 'Stage', metadata: { name: 'raw' }, spec: { resourceRef: { kind: 'Pod' }, selector: {} } };
    assert.deepEqual(
      new StageSet([doc], { now: () => NOW, random: () => 0 }).stages.map((s) => s.name),
      ['raw'],
    );
    assert.throws(() => new StageSet([{ kind: 'Stage', metadata: { name: 'bad' }, spec: {} }], { now: () => NOW, random: () => 0 }), /stage "bad"/);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadKwokDocuments, parseK8sYaml, parseK8sYamlDocuments, parseStages } from '../../../../src/kwok/api/index.js';
import { UsageError } from '../../../../src/util/errors.js';

function stageDoc(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Stage', metadata: { name }, spec: { resourceRef: { kind: 'Pod' }, selector: {}, ...spec } };
}

describe('parseStages: normalisation', () => {
  test('modern form is kept; apiGroup defaults to v1, weight to 0, immediateNextStage to false', () => {
    const { stages, errors } = parseStages(
      [
        stageDoc('s', {
          selector: {
            matchLabels: { a: 'b' },
            matchExpressions: [{ jq: { key: '.status.phase', operator: 'In', values: ['Running'] } }, { cel: { expression: 'has(self.spec)' } }],
          },
          steps: [{ patch: { root: 'status', subresource: 'status', template: 'phase: Running', type: 'merge', impersonation: { username: 'u' } } }],
        }),
      ],
      'f.yaml',
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(stages[0], {
      name: 's',
      source: 'f.yaml',
      resourceRef: { apiGroup: 'v1', kind: 'Pod' },
      selector: {
        matchLabels: { a: 'b' },
        matchExpressions: [{ jq: { key: '.status.phase', operator: 'In', values: ['Running'] } }, { cel: { expression: 'has(self.spec)' } }],
      },
      weight: 0,
      steps: [{ patch: { root: 'status', subresource: 'status', template: 'phase: Running', type: 'merge', impersonation: { username: 'u' } } }],
      immediateNextStage: false,
    });
  });

  test('deprecated next becomes steps in kwok order: event, finalizers, patches, delete', () => {
    const { stages } = parseStages(
      [
        stageDoc('s', {
          next: {
            delete: true,
            patches: [{ template: 'a: 1', root: 'spec' }, { template: 'b: 2', type: 'json' }],
            statusTemplate: 'ignored: because patches exist',
            finalizers: { add: [{ value: 'x' }], empty: true },
            event: { type: 'Normal', reason: 'R', message: 'M' },
          },
        }),
      ],
      'f',
    );
    assert.deepEqual(stages[0]?.steps, [
      { event: { type: 'Normal', reason: 'R', message: 'M' } },
      { finalizers: { add: ['x'], remove: [], empty: true } },
      { patch: { template: 'a: 1', root: 'spec' } },
      { patch: { template: 'b: 2', type: 'json' } },
      { delete: true },
    ]);
  });

  test('statusTemplate becomes a status patch: subresource defaults to status, statusPatchAs impersonates', () => {
    const parse = (next: Record<string, unknown>) => parseStages([stageDoc('s', { next })], 'f').stages[0]?.steps;
    assert.deepEqual(parse({ statusTemplate: 'phase: X' }), [{ patch: { root: 'status', template: 'phase: X', subresource: 'status' } }]);
    assert.deepEqual(parse({ statusTemplate: 'phase: X', statusSubresource: 'scale', statusPatchAs: { username: 'admin' } }), [
      { patch: { root: 'status', template: 'phase: X', subresource: 'scale', impersonation: { username: 'admin' } } },
    ]);
    assert.deepEqual(parse({ statusTemplate: 'phase: X', statusSubresource: '' }), [{ patch: { root: 'status', template: 'phase: X' } }]);
  });

  test('steps win over next when both are given', () => {
    const { stages } = parseStages([stageDoc('s', { steps: [{ delete: true }], next: { event: { type: 'Normal' } } })], 'f');
    assert.deepEqual(stages[0]?.steps, [{ delete: true }]);
  });

  test('flat matchExpressions become jq, a flat expression CEL, expressionFrom jq', () => {
    const { stages, errors } = parseStages(
      [
        stageDoc('s', {
          selector: { matchExpressions: [{ key: '.a', operator: 'Exists' }, { expression: 'true' }] },
          weightFrom: { expressionFrom: '.w' },
          delay: { durationMilliseconds: 5, durationFrom: { expressionFrom: '.d' }, jitterDurationFrom: { jq: { expression: '.j' } } },
        }),
      ],
      'f',
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(stages[0]?.selector.matchExpressions, [{ jq: { key: '.a', operator: 'Exists', values: [] } }, { cel: { expression: 'true' } }]);
    assert.deepEqual(stages[0]?.weightFrom, { jq: { expression: '.w' } });
    assert.deepEqual(stages[0]?.delay, { durationMilliseconds: 5, durationFrom: { jq: { expression: '.d' } }, jitterDurationFrom: { jq: { expression: '.j' } } });
  });

  test('a stage without selector is dropped silently (kwok ignores it); {} is kept', () => {
    const doc = stageDoc('none', {});
    delete (doc.spec as Record<string, unknown>).selector;
    const { stages, errors } = parseStages([doc, stageDoc('all', { selector: {} })], 'f');
    assert.deepEqual(errors, []);
    assert.deepEqual(
      stages.map((s) => s.name),
      ['all'],
    );
  });
});

describe('parseStages: errors name file, stage and problem; valid stages survive', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['unknown spec field', { nxet: {} }, /unknown field "spec\.nxet"/],
    ['unknown nested field', { delay: { durationMillis: 10 } }, /unknown field "spec\.delay\.durationMillis"/],
    ['bad duration type', { delay: { durationMilliseconds: '10s' } }, /spec\.delay\.durationMilliseconds/],
    ['negative duration', { delay: { jitterDurationMilliseconds: -1 } }, /spec\.delay\.jitterDurationMilliseconds/],
    ['bad operator', { selector: { matchExpressions: [{ key: '.a', operator: 'Intersection', values: ['x'] }] } }, /operator "Intersection" is not supported/],
    ['In without values', { selector: { matchExpressions: [{ jq: { key: '.a', operator: 'In' } }] } }, /values set can't be empty/],
    ['Exists with values', { selector: { matchExpressions: [{ jq: { key: '.a', operator: 'Exists', values: ['x'] } }] } }, /must be empty/],
    ['empty matchExpression', { selector: { matchExpressions: [{}] } }, /matchExpressions\[0\]: invalid expression/],
    ['invalid jq', { selector: { matchExpressions: [{ jq: { key: '.a[', operator: 'Exists' } }] } }, /matchExpressions\[0\]: invalid jq expression/],
    ['invalid jq in weightFrom', { weightFrom: { jq: { expression: '|||' } } }, /spec\.weightFrom\.jq\.expression: invalid jq/],
    ['invalid CEL', { selector: { matchExpressions: [{ cel: { expression: 'self.a ==' } }] } }, /invalid CEL expression/],
    ['invalid template', { steps: [{ patch: { template: '{{ if }}' } }] }, /spec\.steps\[0\]\.patch\.template/],
    ['bad patch type', { steps: [{ patch: { template: 'a: 1', type: 'strategy' } }] }, /spec\.steps\[0\]\.patch\.type/],
  ];
  for (const [name, spec, pattern] of cases) {
    test(name, () => {
      const { stages, errors } = parseStages([stageDoc('bad', spec), stageDoc('good', {})], 'stages.yaml');
      assert.deepEqual(
        stages.map((s) => s.name),
        ['good'],
      );
      assert.equal(errors.length, 1);
      assert.ok(errors[0] instanceof UsageError);
      assert.match(errors[0]!.message, /^stages\.yaml: stage "bad": /);
      assert.match(errors[0]!.message, pattern);
    });
  }

  test('missing metadata.name and wrong kind are reported by position', () => {
    const { errors } = parseStages([{ kind: 'Stage', metadata: {}, spec: { resourceRef: { kind: 'Pod' } } }], 'f');
    assert.match(errors[0]!.message, /^f: stage "#1": metadata\.name/);
  });
});

describe('YAML like sigs.k8s.io/yaml', () => {
  test('YAML 1.1 booleans and octal, timestamps stay strings', () => {
    assert.deepEqual(parseK8sYaml('a: yes\nb: off\nc: 0755\nd: 2006-01-02T15:04:05Z\ne: 2006-01-02\nf: "yes"\n'), {
      a: true,
      b: false,
      c: 493,
      d: '2006-01-02T15:04:05Z',
      e: '2006-01-02',
      f: 'yes',
    });
  });

  test('multi-document streams skip empty documents', () => {
    assert.deepEqual(parseK8sYamlDocuments('---\na: 1\n---\n---\nb: 2\n'), [{ a: 1 }, { b: 2 }]);
  });

  test('loadKwokDocuments routes by kind and reports invalid stages', () => {
    const text = [
      'apiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokConfiguration\noptions: {}',
      'apiVersion: kwok.x-k8s.io/v1alpha1\nkind: Stage\nmetadata: {name: ok}\nspec: {resourceRef: {kind: Node}, selector: {}}',
      'apiVersion: kwok.x-k8s.io/v1alpha1\nkind: Stage\nmetadata: {name: broken}\nspec: {resourceRef: {kind: Node}, selector: {}, wieght: 1}',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}',
    ].join('\n---\n');
    const docs = loadKwokDocuments(text, 'kwok.yaml');
    assert.deepEqual(
      docs.stages.map((s) => s.name),
      ['ok'],
    );
    assert.equal(docs.kwokConfigurations.length, 1);
    assert.deepEqual(
      docs.others.map((o) => o.kind),
      ['ConfigMap'],
    );
    assert.match(docs.stageErrors[0]!.message, /kwok\.yaml: stage "broken": unknown field "spec\.wieght"/);
  });

  test('invalid YAML and documents without kind are usage errors', () => {
    assert.throws(() => loadKwokDocuments('a: [1', 'x.yaml'), (e: unknown) => e instanceof UsageError && /x\.yaml: invalid YAML/.test(e.message));
    assert.throws(() => loadKwokDocuments('a: 1', 'x.yaml'), /document 1 has no "kind"/);
  });
});

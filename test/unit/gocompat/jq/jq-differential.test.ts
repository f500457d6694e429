/**
 * Differential test: our jq engine (jqjs + the fixes in jqjs-fixes.ts / jq-source.ts) against real jq (jq-web) on a
 * realistic Pod. Every expression must give the same outputs; an error counts as no outputs.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { compileJq } from '../../../../src/gocompat/jq/jq.js';
import { realisticPod } from '../../kwok/fixtures/realistic-pod.js';
import { loadJqOracle, oracleOutputs } from './jq-oracle.js';

/** The expressions kwok's default stages use, then a broader corpus of gojq/jq 1.7 syntax. */
const CORPUS = [
  // kwok default stages
  '.status.conditions.[] | select( .type == "Ready" ) | .status',
  '.status.conditions.[] | select( .type == "Initialized" ) | .status',
  '.metadata.annotations["x"]',
  '.metadata.ownerReferences.[].kind',
  '.metadata.deletionTimestamp',
  '.metadata.finalizers',
  '.status.phase',
  '.status.podIP',
  '.spec.containers.[].name',
  '.status.initContainerStatuses.[].state.waiting.reason',
  '.status.containerStatuses.[].state.running.startedAt',
  '.metadata.labels["node-not-ready.stage.kwok.x-k8s.io"]',
  '.metadata.annotations["pod-ready.stage.kwok.x-k8s.io/delay"]',
  '.metadata.annotations["pod-ready.stage.kwok.x-k8s.io/weight"]',
  // the three jqjs bugs
  '.missing // "d"',
  '.status.phase // "d"',
  'false // "d"',
  '(null, false, 1, 2) // 3',
  '(.metadata.name | tonumber)? // "fallback"',
  '.metadata.annotations["pod-ready.stage.kwok.x-k8s.io/weight"] | tonumber + 1',
  'keys',
  '.metadata | keys',
  '.metadata.labels | keys_unsorted',
  '.spec.containers | keys',
  '."metadata"."name"',
  '.metadata.annotations."a-b"',
  '.metadata."annotations"["x"]',
  // indexing and errors
  '.status.phase.x',
  '.metadata.name[0]',
  '.spec.priority.x',
  '.spec.containers.x',
  '.metadata.labels[0]',
  '.missing.deep.deeper',
  '.spec.containers[-1].name',
  '.spec.containers[5]',
  '.spec.containers[1:].[].name',
  '.spec.containers[:2] | map(.name)',
  '.spec.containers[-2:] | length',
  '.metadata.name[4:]',
  '.metadata.name | ltrimstr(1)',
  '.metadata.name | utf8bytelength',
  '.metadata.name | test("WEB"; "i")',
  '.spec.priority / 0',
  '.status.phase?',
  '.status.phase.x?',
  '[.spec.containers[].name?]',
  '.spec.containers[] | .ports?[]?.containerPort',
  // truthiness, conditionals and boolean operators
  'if .spec.priority then "truthy" else "falsy" end',
  'if .metadata.name == "" then 1 elif .spec.hostNetwork then 2 else 3 end',
  'if (true, false) then "a" else "b" end',
  '.spec.hostNetwork and .status.podIP',
  '(true, false) and (true, false)',
  'false and error',
  'true or error',
  '.spec.hostNetwork or (.status.phase == "Running")',
  '.status.phase | not',
  // functions
  '.spec.containers | length',
  '.metadata.annotations | length',
  '.metadata.name | length',
  '[.status.containerStatuses[] | select(.ready)] | length',
  '.status.containerStatuses | map(.restartCount) | add',
  '[.status.containerStatuses[].restartCount] | max',
  'any(.status.conditions[]; .status != "True")',
  'all(.status.conditions[]; .status == "True")',
  '.metadata.labels | has("app")',
  '.metadata.labels | to_entries | map(.key) | join(",")',
  '.metadata.name | test("^web-")',
  '.metadata.name | startswith("web")',
  '.metadata.name | split("-") | .[0]',
  '.metadata.name | ascii_upcase',
  '.metadata.name | ltrimstr("web-")',
  '.spec.containers | map(.image) | sort | first',
  '[.spec.containers[].name] | index("logger")',
  '.spec.priority | tostring',
  '.metadata.annotations["pod-ready.stage.kwok.x-k8s.io/weight"] | tonumber',
  '.status.containerStatuses | map(select(.state.waiting)) | .[].name',
  '.metadata.creationTimestamp | fromdateiso8601',
  '.spec.containers | to_entries | map("\\(.key)=\\(.value.name)") | join(" ")',
  '.spec.containers[0] as $c | $c.ports[0].containerPort',
  'def names: [.[].name]; .spec.containers | names',
  '[.spec.containers[] | .name] | unique',
  '.metadata.labels | with_entries(select(.key != "tier"))',
  '[paths(type == "number")] | length',
  'reduce .status.containerStatuses[] as $s (0; . + $s.restartCount)',
  '.spec.containers | [limit(2; .[])] | map(.name)',
  '[.status.conditions[].type] | contains(["Ready"])',
  '"\\(.metadata.namespace)/\\(.metadata.name)"',
  '.metadata | {name, namespace}',
  '.spec.containers[] | select(.name == "nginx") | .resources.requests.cpu',
  '[.spec.containers[].ports // [] | length]',
  '.status | .phase, .hostIP',
  '(.spec.containers | length) > 2',
  '.metadata.deletionTimestamp > .metadata.creationTimestamp',
  '[1, "a", null, true, [1], {"a": 1}] | sort',
  '.metadata.labels | to_entries | sort_by(.key) | .[0].value',
];

describe('jq engine matches real jq', () => {
  let oracle: Awaited<ReturnType<typeof loadJqOracle>>;
  before(async () => {
    oracle = await loadJqOracle();
  });

  test('corpus has about fifty expressions', () => {
    assert.ok(CORPUS.length >= 50, `only ${CORPUS.length} expressions`);
  });

  for (const expression of CORPUS) {
    test(expression, () => {
      const pod = realisticPod();
      const ours = compileJq(expression).run(pod);
      const theirs = oracleOutputs(oracle, pod, expression);
      assert.deepEqual(ours, theirs);
      assert.deepEqual(pod, realisticPod(), 'the input object must not be modified');
    });
  }
});

describe('plain field paths (evaluated without jqjs) match real jq on every kind of input', () => {
  let oracle: Awaited<ReturnType<typeof loadJqOracle>>;
  before(async () => {
    oracle = await loadJqOracle();
  });
  const inputs: unknown[] = [
    null,
    {},
    [],
    'text',
    3,
    true,
    { a: null },
    { a: { b: 'x' } },
    { a: { b: [1, 2] } },
    { a: [{ b: 1 }] },
    { a: 'string' },
    { a: 7 },
    { a: { b: { c: false } } },
    { a: { b: {} } },
    JSON.parse('{"constructor": 1, "a": {"toString": "t"}}'),
    {},
  ];
  for (const expression of ['.a', '.a.b', '.a.b.c', ' .a.b ', '.constructor', '.a.toString', '.__proto__', '.a_1.B2']) {
    test(expression, () => {
      for (const input of inputs) assert.deepEqual(compileJq(expression).run(input), oracleOutputs(oracle, input, expression), `${expression} on ${JSON.stringify(input)}`);
    });
  }
});

describe('list walks (a condition, the owners, container states; evaluated without jqjs) match real jq on every kind of input', () => {
  let oracle: Awaited<ReturnType<typeof loadJqOracle>>;
  before(async () => {
    oracle = await loadJqOracle();
  });
  const lists: unknown[] = [
    undefined,
    null,
    [],
    {},
    { x: { type: 'Ready', status: 'True' } },
    'text',
    4,
    [null],
    [{ type: 'Ready', status: 'True' }],
    [{ type: 'Ready', status: 'True' }, { type: 'Ready', status: 'False' }],
    [{ type: 'Other', status: 'True' }, { type: 'Ready' }],
    [{ type: 'Ready', status: { nested: 1 } }, null, { status: 'x' }],
    [{ type: 'Ready', status: 'True' }, 'text'],
    [{ type: 'Ready', status: 'True' }, 7],
    [{ type: 'Ready', status: 'True' }, ['nested']],
    [{ type: 1, status: 'One' }, { type: null, status: 'Null' }, { type: 'ready', status: 'lower' }],
    [{ kind: 'Job' }, { kind: 'ReplicaSet' }, {}],
    [{ kind: 'Job' }, 'text'],
    [{ state: { running: { startedAt: 't' } } }, { state: null }, { state: { running: 's' } }],
    [{ state: { waiting: { reason: 'r' } } }, { state: {} }],
    [{ type: 'Ready', status: 'True', constructor: 'c' }],
  ];
  const inputs: unknown[] = [null, {}, 'text', ...lists.map((list) => ({ status: { conditions: list, containerStatuses: list }, metadata: { ownerReferences: list } }))];
  for (const expression of [
    '.status.conditions.[] | select( .type == "Ready" ) | .status',
    '.status.conditions[] | select(.type=="Ready") | .status',
    '.metadata.ownerReferences.[].kind',
    '.status.containerStatuses.[].state.running.startedAt',
    '.status.containerStatuses.[].state.waiting.reason',
    '.status.conditions.[] | select( .constructor == "c" ) | .type',
  ]) {
    test(expression, () => {
      for (const input of inputs) assert.deepEqual(compileJq(expression).run(input), oracleOutputs(oracle, input, expression), `${expression} on ${JSON.stringify(input)}`);
    });
  }
});

/**
 * The fast reader for rendered stage templates against loadYaml11 (js-yaml with go-yaml v2's
 * scalar rules), which it must equal exactly or give up to: every stage template the repo ships or
 * tests with, rendered against varied objects; each give-up case and each escape on its own; and
 * random mutations of rendered outputs.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { goSyntax, kwokQuote, marshalYaml, renderTemplate, type FuncMap } from '../../../../src/gocompat/gotpl/index.js';
import { goQuote } from '../../../../src/gocompat/gotpl/quote.js';
import { NOT_SIMPLE, readSimpleYaml } from '../../../../src/gocompat/yaml/simple-block-yaml.js';
import { loadYaml11 } from '../../../../src/gocompat/yaml/yaml11-schema.js';
import { parseK8sYaml, YamlSyntaxError } from '../../../../src/gocompat/yaml/k8s-yaml.js';
import { loadKwokDocuments } from '../../../../src/kwok/api/index.js';
import { NODE_HEARTBEAT_WITH_LEASE, NODE_INITIALIZE, POD_COMPLETE, POD_READY } from '../gotpl/kwok-upstream-templates.js';

const ROOT = resolve(import.meta.dirname, '../../../..');

type Outcome = 'fast' | 'gave-up';

/** The fast reader's answer must be loadYaml11's; giving up is always allowed. */
function check(text: string): Outcome {
  const fast = readSimpleYaml(text);
  if (fast === NOT_SIMPLE) return 'gave-up';
  let reference: unknown;
  try {
    reference = loadYaml11(text) ?? null;
  } catch (error) {
    assert.fail(`the fast reader answered ${JSON.stringify(fast)} where loadYaml11 throws ${(error as Error).message}\n--- text:\n${text}`);
  }
  assert.deepStrictEqual(fast, reference, `--- text:\n${text}`);
  // deepStrictEqual ignores key order; a patch's JSON does not.
  assert.equal(JSON.stringify(fast), JSON.stringify(reference), `--- key order, text:\n${text}`);
  return 'fast';
}

// ---------------------------------------------------------------------------------------------
// The corpus: every template, rendered against varied objects with varied functions.

function stageTemplates(file: string): Array<[string, string]> {
  const loaded = loadKwokDocuments(readFileSync(file, 'utf8'), file);
  assert.deepEqual(
    loaded.stageErrors.map((e) => e.message),
    [],
  );
  const out: Array<[string, string]> = [];
  for (const stage of loaded.stages) {
    for (const step of stage.steps) {
      if (step.patch) out.push([`${file}:${stage.name}`, step.patch.template]);
      if (step.apply) out.push([`${file}:${stage.name}`, step.apply.template]);
    }
  }
  return out;
}

function allTemplates(): Array<[string, string]> {
  const stageDir = join(ROOT, 'templates/stages');
  const files = [
    ...readdirSync(stageDir).map((f) => join(stageDir, f)),
    join(ROOT, 'templates/deploy/stage-fast.yaml'),
    join(ROOT, 'test/unit/gocompat/yaml/fixtures/seed-002-stages.yaml'),
  ];
  return [
    ...files.flatMap(stageTemplates),
    ['kwok pod-ready', POD_READY],
    ['kwok pod-complete', POD_COMPLETE],
    ['kwok node-initialize', NODE_INITIALIZE],
    ['kwok node-heartbeat-with-lease', NODE_HEARTBEAT_WITH_LEASE],
  ];
}

/** Strings a YAML 1.1 reader could take for something else, or that need quoting or escapes. */
const ODD = [
  '0755', '1e3', 'yes', '~', '', 'null', 'true', 'No', 'off', '0x1F', '.5', '-1', '+1', '1_000', '.inf', '-.Inf', '.nan', '08', '0b101', '0o17', '12:30',
  '2024-01-01', '2024-01-01T00:00:00Z', 'a: b', 'a:b', 'a #b', '#x', '- x', '-x', '"q"', "it's", "'", 'tab\there', 'new\nline', 'cr\rhere', 'back\\slash',
  'ünïcödé', '日本語', 'emoji 😀', '<b>&amp;</b>', ' lead', 'trail ', 'line\u2028sep', 'del\x7f', 'nel\x85', 'nul\x00', 'bom\ufeff', '[x]', '{x}', '[]', '{}',
  '*a', '&a', '!tag', '|', '>', '%', '@', '`', ':x', '?x', '? x', 'http://x:80/p', '<<', '---', '...', 'a,b', 'x'.repeat(100), 'two  spaces',
];
const NAMES = ['web-0', 'fake-pod-000001', ...ODD];
const IMAGES = ['nginx:1.24.0', 'registry.local:5000/team/app@sha256:' + 'a'.repeat(64), 'busybox', ...ODD];

function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length] as T;
}

function pods(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < NAMES.length; i++) {
    const name = pick(NAMES, i);
    const containers = Array.from({ length: 1 + (i % 3) }, (_, j) => ({ name: pick(NAMES, i + j * 7), image: pick(IMAGES, i + j) }));
    const spec: Record<string, unknown> = { nodeName: pick(NAMES, i + 3), containers };
    if (i % 2 === 0) spec.initContainers = [{ name: pick(NAMES, i + 11), image: pick(IMAGES, i + 5), ...(i % 4 === 0 ? { restartPolicy: 'Always' } : {}) }];
    if (i % 3 === 0) spec.readinessGates = [{ conditionType: pick(NAMES, i + 13) }, { conditionType: 'example.com/lb-ready' }];
    if (i % 5 === 0) spec.hostNetwork = true;
    const annotations: Record<string, string> = {
      'pod-container-running-failed.stage.kwok.x-k8s.io/reason': pick(ODD, i + 17),
      'pod-container-running-failed.stage.kwok.x-k8s.io/message': pick(ODD, i + 19),
      'pod-init-container-running-failed.stage.kwok.x-k8s.io/exit-code': pick(ODD, i + 23),
    };
    out.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: pick(NAMES, i + 1), uid: `uid-${i}`, creationTimestamp: '2024-05-06T07:00:00Z', annotations, ...(i % 4 === 1 ? { ownerReferences: [{ kind: 'Job', name: 'j' }] } : {}) },
      spec,
      status: {
        phase: 'Running',
        containerStatuses: containers.map((c) => ({ name: c.name, state: { running: { startedAt: i % 2 ? '2024-05-06T07:00:01Z' : pick(ODD, i) } } })),
      },
    });
  }
  return out;
}

function nodes(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < ODD.length; i++) {
    const odd = pick(ODD, i);
    const status: Record<string, unknown> = {};
    if (i % 3 !== 2)
      status.addresses = [
        { type: 'InternalIP', address: i % 2 ? '10.0.0.1' : 'fd00::1' },
        ...(i % 3 === 0 ? [{ type: 'InternalIP', address: 'fd00:10::7' }, { type: 'Hostname', address: odd }] : []),
      ];
    if (i % 2 === 0) status.allocatable = { cpu: odd, memory: '256Gi', pods: '110', 'nvidia.com/gpu': '4', [odd || 'empty']: odd };
    if (i % 2 === 0) status.capacity = { cpu: '32', memory: '1Ti', pods: 110 };
    if (i % 4 === 0) status.nodeInfo = { architecture: odd, kubeletVersion: 'v1.30.0', bootID: '', osImage: odd };
    out.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: odd === '' ? 'node-0' : odd,
        creationTimestamp: i % 2 ? '2024-05-01T00:00:00Z' : undefined,
        annotations: { 'node-not-ready.stage.kwok.x-k8s.io/type': 'MemoryPressure', 'node-not-ready.stage.kwok.x-k8s.io/reason': odd, 'node-not-ready.stage.kwok.x-k8s.io/message': pick(ODD, i + 5) },
      },
      status,
    });
  }
  return out;
}

function fixtureObjects(): Record<string, unknown>[] {
  const dir = join(ROOT, 'test/unit/kwok/fixtures/stages');
  return readdirSync(dir).flatMap((set) =>
    readdirSync(join(dir, set))
      .filter((f) => f.endsWith('.input.yaml'))
      .map((f) => parseK8sYaml(readFileSync(join(dir, set, f), 'utf8')) as Record<string, unknown>),
  );
}

/** kwok's stage-test placeholders ("<Now>", "<NodeIPWith(\"node\")>"). */
function stub(name: string): (...args: unknown[]) => string {
  return (...args) => (args.length === 0 ? `<${name}>` : `<${name}(${args.map((a) => goSyntax(a) || '""').join(', ')})>`);
}

const FUNC_SETS: FuncMap[] = [
  {
    ...Object.fromEntries(['NodeIP', 'NodeName', 'NodePort', 'PodIP', 'NodeIPWith', 'PodIPWith', 'Now', 'Version'].map((n) => [n, stub(n)])),
    NodeIPsWith: (...a: unknown[]) => [stub('NodeIPsWith')(...a)],
    PodIPsWith: (...a: unknown[]) => [stub('PodIPsWith')(...a)],
  },
  {
    Now: () => '2024-05-06T07:08:09.123456789Z',
    NodeIP: () => '10.0.0.1',
    NodeName: () => 'node-1',
    NodePort: () => 10250,
    PodIP: () => '10.244.0.5',
    NodeIPWith: () => '10.0.0.1',
    PodIPWith: () => '10.244.0.5',
    NodeIPsWith: () => ['10.0.0.1'],
    PodIPsWith: () => ['10.244.0.5'],
    Version: () => 'v0.8.0',
  },
  {
    Now: () => '2024-05-06T08:08:09+01:00',
    NodeIP: () => 'fd00::1',
    NodeName: () => '0755',
    NodePort: () => '10250',
    PodIP: () => 'fd00:10:244::5',
    NodeIPWith: () => 'fd00::1',
    PodIPWith: () => 'fd00:10:244::5',
    NodeIPsWith: () => ['10.0.0.1', 'fd00::1'],
    PodIPsWith: () => ['10.244.0.5', 'fd00:10:244::5'],
    Version: () => '0.8',
  },
];

interface Rendered {
  label: string;
  text: string;
  /** A default stage on an ordinary object: the fast reader must not give up on it. */
  ordinary: boolean;
}

function renderCorpus(): Rendered[] {
  const templates = allTemplates();
  const fixtures = fixtureObjects();
  const objects = [...fixtures, ...pods(), ...nodes()];
  const out: Rendered[] = [];
  const seen = new Set<string>();
  for (const [label, template] of templates) {
    for (const [o, object] of objects.entries()) {
      for (const [f, funcs] of FUNC_SETS.entries()) {
        let text: string;
        try {
          text = renderTemplate(template.trim(), object, funcs);
        } catch {
          continue; // templates that fail on some objects (kwok's pod-complete without statuses)
        }
        if (seen.has(text)) continue;
        seen.add(text);
        const ordinary = label.includes('templates/stages/') && o < fixtures.length && f === 1;
        out.push({ label: `${label} on object ${o} with funcs ${f}`, text, ordinary });
      }
    }
  }
  return out;
}

describe('rendered stage templates: the fast reader equals loadYaml11 or gives up', () => {
  const corpus = renderCorpus();

  test('every rendered output', () => {
    assert.ok(corpus.length > 1000, `a corpus of ${corpus.length} outputs`);
    let fast = 0;
    for (const r of corpus) if (check(r.text) === 'fast') fast++;
    // Most outputs are in the subset; the rest (odd strings rendered unquoted, astral characters) are js-yaml's.
    assert.ok(fast > corpus.length * 0.5, `${fast} of ${corpus.length} read fast`);
  });

  test('the default stages on the fixture objects all take the fast path', () => {
    const ordinary = corpus.filter((r) => r.ordinary);
    assert.ok(ordinary.length > 20, `${ordinary.length} ordinary outputs`);
    for (const r of ordinary) assert.equal(check(r.text), 'fast', `${r.label}\n${r.text}`);
  });

  test('the pod-ready output the controller renders per pod is read fast and right', () => {
    const text = [
      '',
      'conditions:',
      '- type: Initialized',
      '  status: "True"',
      '  lastTransitionTime: "2026-11-24T16:29:23.887Z"',
      '',
      'containerStatuses:',
      '',
      '- name: "fake-container"',
      '  image: "fake-image"',
      '  ready: true',
      '  restartCount: 0',
      '  state:',
      '    running:',
      '      startedAt: "2026-11-24T16:29:23.887Z"',
      '',
      'initContainerStatuses:',
      '',
      'hostIPs:',
      '',
      '- ip: "10.0.0.1"',
      '',
      'phase: Running',
      '',
    ].join('\n');
    assert.deepStrictEqual(readSimpleYaml(text), {
      conditions: [{ type: 'Initialized', status: 'True', lastTransitionTime: '2026-11-24T16:29:23.887Z' }],
      containerStatuses: [{ name: 'fake-container', image: 'fake-image', ready: true, restartCount: 0, state: { running: { startedAt: '2026-11-24T16:29:23.887Z' } } }],
      initContainerStatuses: null,
      hostIPs: [{ ip: '10.0.0.1' }],
      phase: 'Running',
    });
    assert.equal(check(text), 'fast');
  });

  test('random mutations of rendered outputs: equal to loadYaml11 or given up, never another answer', () => {
    const random = mulberry32(14);
    const bases = corpus.filter((_, i) => i % 7 === 0).map((r) => r.text);
    const counts = { fast: 0, 'gave-up': 0 };
    for (let n = 0; n < 12000; n++) {
      let text = pick(bases, Math.floor(random() * bases.length));
      const edits = 1 + Math.floor(random() * 3);
      for (let e = 0; e < edits; e++) text = mutate(text, random);
      counts[check(text)]++;
    }
    assert.ok(counts.fast > 2000 && counts['gave-up'] > 2000, JSON.stringify(counts));
  });
});

// ---------------------------------------------------------------------------------------------
// Generated documents in the subset's own style, with odd scalars: read back to the value written.

describe('generated documents', () => {
  test("go-yaml's output (kwok's YAML function) reads back to the value, or the reader gives up", () => {
    const random = mulberry32(7);
    let fast = 0;
    for (let n = 0; n < 3000; n++) {
      const value = randomValue(random, 0);
      const text = marshalYaml(value);
      if (check(text) === 'fast') fast++;
      for (let indent = 1; indent <= 2; indent++) {
        const nested = `key:${('\n' + text).replaceAll('\n', '\n' + '  '.repeat(indent))}\nnext: 1\n`;
        check(nested);
      }
    }
    assert.ok(fast > 1000, `${fast} read fast`);
  });

  test('random block layouts (indent widths, flush and compact forms, blank lines, raw odd scalars)', () => {
    const random = mulberry32(21);
    const counts = { fast: 0, 'gave-up': 0 };
    for (let n = 0; n < 4000; n++) counts[check(layoutBlock(random, 0, Math.floor(random() * 3)).join('\n'))]++;
    assert.ok(counts.fast > 800 && counts['gave-up'] > 800, JSON.stringify(counts));
  });

  test('every string through Quote and strconv.Quote reads back as itself when read fast', () => {
    const strings = [...ODD, ...NAMES, ...IMAGES, 'a\u0001b', 'x\u001fy', '\u00a0nbsp', 'ascii~', 'é\u0301', '\uffff', '\ufffd'];
    for (const s of strings) {
      for (const quoted of [kwokQuote(s), goQuote(s)]) {
        for (const text of [`v: ${quoted}`, `- ${quoted}`, `- k: ${quoted}\n  j: 1`]) {
          if (check(text) === 'fast') {
            const got = readSimpleYaml(text) as unknown;
            const value = text.startsWith('v:') ? (got as { v: unknown }).v : text.startsWith('- k') ? (got as Array<{ k: unknown }>)[0]!.k : (got as unknown[])[0];
            assert.equal(value, s, text);
          }
        }
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The subset, case by case.

describe('what the fast reader reads', () => {
  const cases: Array<[string, string, unknown]> = [
    ['empty document', '', null],
    ['blank lines only', '\n  \n\n', null],
    ['flat mapping', 'a: 1\nb: x', { a: 1, b: 'x' }],
    ['nested mapping', 'a:\n  b:\n    c: d\ne: f', { a: { b: { c: 'd' } }, e: 'f' }],
    ['indented root', '  a: 1\n  b: 2', { a: 1, b: 2 }],
    ['sequence flush with its key', 'a:\n- x\n- z\nb: 1', { a: ['x', 'z'], b: 1 }],
    ['sequence indented under its key', 'a:\n  - x\n  - y\nb: 1', { a: ['x', true], b: 1 }],
    ['compact mappings in a sequence', 'a:\n- k: 1\n  j: 2\n- k: 3', { a: [{ k: 1, j: 2 }, { k: 3 }] }],
    ['a sequence flush with a key of a compact mapping', '- a:\n  - x\n  b: 1\n- c', [{ a: ['x'], b: 1 }, 'c']],
    ['lists of lists, as go-yaml writes them', 'a:\n- - 1\n  - 2\n- - - 3\n- - k: v', { a: [[1, 2], [[3]], [{ k: 'v' }]] }],
    ['a dash alone, then a block', '-\n  a: 1\n-\n  - x', [{ a: 1 }, ['x']]],
    ['empty values', 'a:\nb:\n  \nc: ~', { a: null, b: null, c: null }],
    ['empty collections', 'a: []\nb: {}  \nc:\n- []', { a: [], b: {}, c: [[]] }],
    ['go-yaml v2 scalars', 'a: yes\nb: 0755\nc: 1e3\nd: "0755"\ne: off\nf: .inf\ng: 0x1F\nh: 1_000\ni: 08', { a: true, b: 493, c: 1000, d: '0755', e: false, f: Infinity, g: 31, h: 1000, i: 8 }],
    ['keys resolve like values, then become strings', 'yes: 1\n0x10: 2\nnull: 3\n1e3: 4', { true: 1, 16: 2, null: 3, 1000: 4 }],
    ['trailing spaces', 'a: x   \nb: "y"  \nc:   \n  d: 1', { a: 'x', b: 'y', c: { d: 1 } }],
    ['single quotes', "a: 'it''s'\nb: ''\nc: '[ x ] # y: z'", { a: "it's", b: '', c: '[ x ] # y: z' }],
    ['plain scalars with inner indicators', 'a: b,c\nb: x[0]\nc: http://h:80/p\nd: a#b\ne: -7\nf: 10.0.0.1\ng: fd00::1', { a: 'b,c', b: 'x[0]', c: 'http://h:80/p', d: 'a#b', e: -7, f: '10.0.0.1', g: 'fd00::1' }],
    ['backslashes in and between double-quoted scalars', 'a: "x"\nb: p\\q\nc: \'r\\s\'\nd: "t\\"u\\\\"\ne: "\\u00e9\\n"\nf: "plain"', { a: 'x', b: 'p\\q', c: 'r\\s', d: 't"u\\', e: 'é\n', f: 'plain' }],
    ['unicode', 'ключ: значение\n名前: "日本語"', { ключ: 'значение', 名前: '日本語' }],
  ];
  for (const [name, text, want] of cases) {
    test(name, () => {
      assert.deepStrictEqual(readSimpleYaml(text), want);
      assert.equal(check(text), 'fast');
    });
  }

  test('every escape of a double-quoted scalar', () => {
    const escapes: Array<[string, string]> = [
      ['\\"', '"'], ['\\\\', '\\'], ['\\/', '/'], ['\\n', '\n'], ['\\t', '\t'], ['\\r', '\r'], ['\\0', '\0'], ['\\a', '\x07'], ['\\b', '\b'], ['\\v', '\v'],
      ['\\f', '\f'], ['\\e', '\x1b'], ['\\ ', ' '], ['\\N', '\x85'], ['\\_', '\xa0'], ['\\L', '\u2028'], ['\\P', '\u2029'], ['\\x41', 'A'], ['\\x7f', '\x7f'],
      ['\\u00e9', 'é'], ['\\u003c', '<'], ['\\u2028', '\u2028'], ['\\ud83d\\ude00', '😀'], ['\\ud800', '\ud800'], ['\\U0001F600', '😀'], ['\\U0010FFFF', '\u{10ffff}'],
    ];
    for (const [escape, want] of escapes) {
      const text = `v: "a${escape}b"`;
      assert.deepStrictEqual(readSimpleYaml(text), { v: `a${want}b` }, escape);
      assert.equal(check(text), 'fast', escape);
    }
  });
});

describe('what makes the fast reader give up (and parseK8sYaml answer as js-yaml does)', () => {
  const cases: Array<[string, string]> = [
    ['flow mapping', 'a: {b: 1}'],
    ['flow sequence', 'a: [1, 2]'],
    ['a flow sequence as the root', '[1, 2]'],
    ['a scalar as the root', 'just text'],
    ['a quoted scalar as the root', '"text"'],
    ['single-quoted key', "'a': 1"],
    ['double-quoted key', '"a": 1'],
    ['quoted key in a compact mapping', '- "a": 1'],
    ['literal block scalar', 'a: |\n  text'],
    ['folded block scalar', 'a: >-\n  text'],
    ['anchor and alias', 'a: &x 1\nb: *x'],
    ['merge key', 'a:\n  <<: {b: 1}'],
    ['merge key in block form', 'base:\n  x: 1\nc:\n  <<: 1'],
    ['tag', 'a: !!str 1'],
    ['comment line', '# hello\na: 1'],
    ['comment after a value', 'a: 1 # one'],
    ['comment after a quoted value', 'a: "1" # one'],
    ['comment after a key', 'a: # none\n  b: 1'],
    ['indented comment', 'a:\n  # c\n  b: 1'],
    ['multi-line plain scalar', 'a: one\n  two'],
    ['multi-line plain scalar in a sequence', 'a:\n- one\n  two'],
    ['multi-line double-quoted scalar', 'a: "one\n  two"'],
    ['line continuation in a double-quoted scalar', 'a: "one\\\n  two"'],
    ['multi-line single-quoted scalar', "a: 'one\n  two'"],
    ['tab in indentation', 'a:\n\tb: 1'],
    ['tab in a value', 'a: b\tc'],
    ['carriage return', 'a: 1\r\nb: 2'],
    ['explicit key', '? a\n: 1'],
    ['duplicate key', 'a: 1\na: 2'],
    ['duplicate key after resolution', '1: a\n01: b'],
    ['__proto__ key', '__proto__: 1'],
    ['document start', '---\na: 1'],
    ['document end', 'a: 1\n...'],
    ['directive', '%YAML 1.1\n---\na: 1'],
    ['two documents', 'a: 1\n---\nb: 2'],
    ['a mapping where a value belongs', 'a: b: c'],
    ['a value ending in a colon', 'a: b:'],
    ['a sequence where a value belongs', 'a: - b'],
    ['a dash alone as a value', 'a: -'],
    ['a null sequence entry (js-yaml reads what follows into a nested one)', '- - a\n  -\n- b'],
    ['a null sequence entry at the end', 'a:\n- x\n-'],
    ['space before the colon', 'a : 1'],
    ['key without a value separator', 'a:b'],
    ['bad indentation of a mapping entry', 'a:\n  b: 1\n c: 2'],
    ['deeper line after a value', 'a: 1\n  b: 2'],
    ['dedent below the root', '  a: 1\nb: 2'],
    ['sequence after a mapping at the same indent', 'a: 1\n- b'],
    ['mapping after a sequence at the same indent', '- a\nb: 1'],
    ['a key after a sequence that is indented under its key', 'a:\n  - x\n  b: 1'],
    ['unknown escape', 'a: "\\q"'],
    ['short hex escape', 'a: "\\x4"'],
    ['bad hex escape', 'a: "\\u00zz"'],
    ['escape beyond Unicode', 'a: "\\U00110000"'],
    ['text after a closing quote', 'a: "x"y'],
    ['text after a closing single quote', "a: 'x'y"],
    ['unterminated double quote', 'a: "x'],
    ['unterminated single quote', "a: 'x"],
    ['a value starting with an indicator', 'a: @x'],
    ['a value starting with a backquote', 'a: `x`'],
    ['a value starting with a percent sign', 'a: %x'],
    ['a key starting with a dash', '-a: 1'],
    ['a value ?x', 'a: ?x'],
    ['a value :x', 'a: :x'],
    ['a lone merge-key scalar', 'a: <<'],
    ['NUL', 'a: "\0"'],
    ['C1 control', 'a: x\x85y'],
    ['byte order mark', '\ufeffa: 1'],
    ['astral character', 'a: 😀'],
    ['lone surrogate', 'a: \ud800'],
    ['line separator', 'a: x\u2028y'],
    ['nesting deeper than the reader goes', Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1'],
  ];
  for (const [name, text] of cases) {
    test(name, () => {
      assert.equal(readSimpleYaml(text), NOT_SIMPLE);
      let reference: unknown;
      let referenceError: string | undefined;
      try {
        reference = loadYaml11(text) ?? null;
      } catch (error) {
        referenceError = (error as Error).message;
      }
      if (referenceError === undefined) assert.deepStrictEqual(parseK8sYaml(text), reference);
      else assert.throws(() => parseK8sYaml(text), (e: unknown) => e instanceof YamlSyntaxError && e.message === referenceError);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Helpers: a seeded generator, mutations and random values.

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [' ', ' ', '\n', ':', '-', '#', '"', "'", '\\', '[', ']', '{', '}', ',', '&', '*', '!', '|', '>', '?', '%', '@', '`', '\t', 'a', 'y', '0', '7', '.', 'x', 'u', '~', 'é', '<', '_', '+', 'e', '\r'];
const SNIPPETS = ['- ', ': ', '  ', '\n- ', '\n  ', '"\\u00e9"', "''", '[]', '{}', ' # c', '\n---\n', '0x', '.inf', 'yes', 'null', '<<: ', '&a ', '*a', '!!str ', '|\n  ', '\\"'];

function mutate(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1));
  const lines = text.split('\n');
  const line = Math.floor(random() * lines.length);
  switch (Math.floor(random() * 9)) {
    case 0:
      return text.slice(0, at) + pick(ALPHABET, Math.floor(random() * ALPHABET.length)) + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 3));
    case 2:
      return text.slice(0, at) + pick(ALPHABET, Math.floor(random() * ALPHABET.length)) + text.slice(at + 1);
    case 3:
      return text.slice(0, at) + pick(SNIPPETS, Math.floor(random() * SNIPPETS.length)) + text.slice(at);
    case 4: // re-indent a line
      lines[line] = ' '.repeat(Math.floor(random() * 6)) + (lines[line] as string).trimStart();
      return lines.join('\n');
    case 5: // duplicate a line
      lines.splice(line, 0, lines[line] as string);
      return lines.join('\n');
    case 6: // drop a line
      lines.splice(line, 1);
      return lines.join('\n');
    case 7: {
      // swap two lines
      const other = Math.floor(random() * lines.length);
      [lines[line], lines[other]] = [lines[other] as string, lines[line] as string];
      return lines.join('\n');
    }
    default: // indent or dedent a line by one or two
      lines[line] = random() < 0.5 ? ' '.repeat(1 + Math.floor(random() * 2)) + lines[line] : (lines[line] as string).replace(/^ {1,2}/, '');
      return lines.join('\n');
  }
}

function randomValue(random: () => number, depth: number): unknown {
  // Templates render mappings; a root scalar is js-yaml's (the reader gives up on it).
  const r = depth === 0 ? random() * 0.45 : random();
  if (depth < 4 && r < 0.25) {
    const out: Record<string, unknown> = {};
    const n = Math.floor(random() * 4);
    for (let i = 0; i < n; i++) out[random() < 0.7 ? `k${Math.floor(random() * 5)}` : pick(NAMES, Math.floor(random() * NAMES.length))] = randomValue(random, depth + 1);
    return out;
  }
  if (depth < 4 && r < 0.45) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  if (r < 0.55) return Math.floor(random() * 2000) - 1000;
  if (r < 0.6) return random() * 100;
  if (r < 0.65) return random() < 0.5;
  if (r < 0.7) return null;
  return pick(NAMES, Math.floor(random() * NAMES.length));
}

function randomScalar(random: () => number): string {
  const r = random();
  const s = pick(NAMES, Math.floor(random() * NAMES.length));
  if (r < 0.3) return kwokQuote(s);
  if (r < 0.4) return `'${s.replaceAll("'", "''")}'`;
  if (r < 0.5) return String(Math.floor(random() * 100) - 50);
  if (r < 0.55) return random() < 0.5 ? '[]' : '{}';
  if (r < 0.75) return pick(['Running', 'True', 'x y', '10.0.0.1', 'fd00::1', 'a:b', 'v1.30.0', '1Gi', '100m', 'nginx:1.24.0'], Math.floor(random() * 10));
  return s; // raw: odd strings make odd YAML, which must be js-yaml's
}

function blankOrSpaces(random: () => number): string {
  return random() < 0.1 ? (random() < 0.5 ? '' : '   ') : '\u0000';
}

/** Lines of a random mapping or sequence whose entries start at column `indent`. */
function layoutBlock(random: () => number, depth: number, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  const entries = 1 + Math.floor(random() * 3);
  const trailing = (): string => (random() < 0.1 ? '  ' : '');
  const child = (col: number): string[] => layoutBlock(random, depth + 1, col);
  if (depth < 4 && random() < 0.4) {
    for (let e = 0; e < entries; e++) {
      const r = random();
      const gap = ' '.repeat(random() < 0.85 ? 1 : 2);
      if (r < 0.4) lines.push(`${pad}-${gap}${randomScalar(random)}${trailing()}`);
      else if (r < 0.7) {
        const inner = child(indent + 1 + gap.length);
        lines.push(`${pad}-${gap}${(inner[0] ?? '').trimStart()}`, ...inner.slice(1));
      } else if (r < 0.85) lines.push(`${pad}-${trailing()}`, ...child(indent + 1 + Math.floor(random() * 3)));
      else lines.push(`${pad}-`);
      const blank = blankOrSpaces(random);
      if (blank !== '\u0000') lines.push(blank);
    }
    return lines;
  }
  for (let e = 0; e < entries; e++) {
    const key = random() < 0.8 ? `k${e}` : pick(NAMES, Math.floor(random() * NAMES.length));
    const r = random();
    if (depth >= 4 || r < 0.5) lines.push(`${pad}${key}: ${randomScalar(random)}${trailing()}`);
    else if (r < 0.6) lines.push(`${pad}${key}:${trailing()}`);
    else if (r < 0.75) {
      // a sequence flush with its key, as go-yaml writes it
      const inner = child(indent);
      lines.push(`${pad}${key}:`, ...inner);
    } else lines.push(`${pad}${key}:${trailing()}`, ...child(indent + 1 + Math.floor(random() * 3)));
    const blank = blankOrSpaces(random);
    if (blank !== '\u0000') lines.push(blank);
  }
  return lines;
}

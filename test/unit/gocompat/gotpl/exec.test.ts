/**
 * Template language behaviour with kwok's full function set (builtins + sprig + kwok). Go's
 * semantics for the same constructs are pinned by go-oracle.test.ts; these cases cover how Stage
 * templates use them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileTemplate } from '../../../../src/gocompat/gotpl/index.js';

const POD = {
  metadata: { name: 'web-0', namespace: 'ns', labels: { b: '2', a: '1' }, uid: 'u-1' },
  spec: {
    nodeName: 'node-1',
    containers: [
      { name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] },
      { name: 'side', image: 'busybox' },
    ],
    initContainers: [{ name: 'init', image: 'alpine', restartPolicy: 'Always' }],
    readinessGates: [{ conditionType: 'x.io/ready' }],
  },
  status: { containerStatuses: [{ name: 'app', restartCount: 2 }, { name: 'side', restartCount: 0 }] },
};

function render(template: string, data: unknown = POD): string {
  return compileTemplate(template).execute(data);
}

function table(cases: readonly (readonly [string, string, string, unknown?])[]): void {
  for (const [name, template, want, data] of cases) {
    it(name, () => assert.equal(render(template, data ?? POD), want));
  }
}

describe('pipelines', () => {
  table([
    ['the piped value is the last argument', '{{ "x" | printf "%s-%s" "a" }}', 'a-x'],
    ['chained pipes', '{{ .metadata.name | upper | printf "<%s>" }}', '<WEB-0>'],
    ['parenthesised sub-pipelines', '{{ printf "%s/%s" (.metadata.namespace) (.metadata.name | upper) }}', 'ns/WEB-0'],
    ['fields of a parenthesised pipeline', '{{ (index .spec.containers 1).image }}', 'busybox'],
    ['chained field access', '{{ .spec.containers }}', '[map[image:nginx name:app ports:[map[containerPort:80]]] map[image:busybox name:side]]'],
    ['or returns the deciding value', '{{ or .spec.hostNetwork false }}|{{ or .metadata.name "x" }}', 'false|web-0'],
    ['and returns the deciding value', '{{ and .metadata.name .spec.nodeName }}|{{ and .missing "x" }}', 'node-1|<no value>'],
    ['not', '{{ not .spec.hostNetwork }} {{ not .spec }}', 'true false'],
  ]);
});

describe('variables', () => {
  table([
    ['declaration and use', '{{ $n := .metadata.name }}{{ $n }}', 'web-0'],
    ['assignment to an existing variable inside a block', '{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ end }}{{ $x }}', '2'],
    ['a redeclaration inside a block ends with the block', '{{ $x := "out" }}{{ with .spec }}{{ $x := "in" }}{{ $x }}{{ end }}{{ $x }}', 'inout'],
    ['$ is the root inside range and with', '{{ range .spec.containers }}{{ $.metadata.name }}:{{ .name }} {{ end }}', 'web-0:app web-0:side '],
    ['$root pattern from kwok stages', '{{ $root := . }}{{ range $i, $c := .spec.containers }}{{ (index $root.status.containerStatuses $i).restartCount }}{{ end }}', '20'],
    ['variable field chains', '{{ $c := index .spec.containers 0 }}{{ $c.ports }}', '[map[containerPort:80]]'],
  ]);
});

describe('range', () => {
  table([
    ['over a list with index and element', '{{ range $i, $c := .spec.containers }}{{ $i }}={{ $c.name }};{{ end }}', '0=app;1=side;'],
    ['over a list with one variable (the element)', '{{ range $c := .spec.containers }}{{ $c.name }},{{ end }}', 'app,side,'],
    ['over a map in sorted key order', '{{ range $k, $v := .metadata.labels }}{{ $k }}={{ $v }},{{ end }}', 'a=1,b=2,'],
    ['over an integer', '{{ range 3 }}{{ . }}{{ end }}|{{ range $i := 2 }}{{ $i }}{{ end }}', '012|01'],
    ['else when empty or missing', '{{ range .spec.volumes }}v{{ else }}none{{ end }}|{{ range .spec.initContainers }}{{ .name }}{{ else }}none{{ end }}', 'none|init'],
    ['break and continue', '{{ range $i := 5 }}{{ if eq $i 1 }}{{ continue }}{{ end }}{{ if eq $i 3 }}{{ break }}{{ end }}{{ $i }}{{ end }}', '02'],
    ['nested ranges keep their own dot', '{{ range .spec.containers }}{{ .name }}[{{ range .ports }}{{ .containerPort }}{{ end }}]{{ end }}', 'app[80]side[]'],
  ]);
});

describe('if / with', () => {
  table([
    ['if / else if / else', '{{ if .spec.hostNetwork }}host{{ else if eq .spec.nodeName "node-1" }}n1{{ else }}other{{ end }}', 'n1'],
    ['with sets dot, else runs when empty', '{{ with .spec.nodeName }}[{{ . }}]{{ else }}none{{ end }}|{{ with .spec.missing }}x{{ else }}none{{ end }}', '[node-1]|none'],
    ['else with chains', '{{ with .spec.a }}a{{ else with .spec.nodeName }}{{ . }}{{ else }}z{{ end }}', 'node-1'],
    ['with a declaration', '{{ with $c := index .spec.containers 0 }}{{ $c.image }}{{ end }}', 'nginx'],
    ['truthiness: empty string, zero int, empty list and map are false', '{{ if "" }}1{{ end }}{{ if 0 }}2{{ end }}{{ if list }}3{{ end }}{{ if dict }}4{{ end }}{{ if "x" }}5{{ end }}', '5'],
    ['data numbers are json.Number strings, so 0 is truthy (as in kwok)', '{{ if .n }}yes{{ end }}', 'yes', { n: 0 }],
  ]);
});

describe('trim markers and comments', () => {
  table([
    ['trim both sides', 'a  {{- "b" -}}  c', 'abc'],
    ['trim newlines around blocks', 'x:\n  {{- range .spec.containers }}\n  - {{ .name }}\n  {{- end }}', 'x:\n  - app\n  - side'],
    ['comments', 'a{{/* note */}}b{{- /* trimmed */ -}} c', 'abc'],
    ['a negative number is not a trim marker', '{{-3}}', '-3'],
  ]);
});

describe('missing values', () => {
  table([
    ['a missing key prints <no value>', '{{ .metadata.missing }}', '<no value>'],
    ['a missing key as an argument is nil', '{{ print .metadata.missing }}', '<nil>'],
    ['walking through a missing key is allowed', '{{ .metadata.missing.deeper }}', '<no value>'],
    ['default from sprig', '{{ .metadata.missing | default "d" }}', 'd'],
  ]);

  it('walking through JSON null is an error', () => {
    assert.throws(() => render('{{ .a.b }}', { a: null }), {
      message: 'template: _:1:5: executing "_" at <.a.b>: nil pointer evaluating interface {}.b',
    });
  });
});

describe('define / template / block', () => {
  table([
    ['define and template', '{{ define "c" }}<{{ .name }}>{{ end }}{{ range .spec.containers }}{{ template "c" . }}{{ end }}', '<app><side>'],
    ['block defines and runs', '{{ block "b" .metadata }}{{ .name }}{{ end }}', 'web-0'],
    ['templates see only their own $', '{{ define "r" }}{{ $ }}{{ end }}{{ template "r" .metadata.name }}', 'web-0'],
  ]);
});

describe('kwok specifics of the function set', () => {
  it("sprig's slice replaces Go's builtin slice, as in kwok", () => {
    assert.equal(render('{{ slice .spec.containers 1 | len }}'), '1');
    assert.throws(() => render('{{ slice "abc" 1 }}'), /error calling slice: list should be type of slice or array but string/);
  });

  it('comparing a data number with an int literal fails as in kwok (json.Number vs int)', () => {
    assert.throws(() => render('{{ eq .n 3 }}', { n: 3 }), /incompatible types for comparison: json.Number and int/);
    assert.equal(render('{{ eq .n "3" }} {{ eq (int .n) 3 }}', { n: 3 }), 'true true');
  });
});

describe('limits', () => {
  it('stops runaway template recursion with Go\'s error (depth 1000, as Go uses on wasm)', () => {
    assert.throws(() => render('{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}'), {
      message: 'template: _:1:28: executing "r" at <{{template "r" .}}>: exceeded maximum template depth (1000)',
    });
  });
});

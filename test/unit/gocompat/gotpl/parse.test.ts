/**
 * Parser: trees render back (Node.String) exactly as Go's parse package renders them; the
 * expectations come from Go 1.26's text/template/parse with the same declared functions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TemplateError } from '../../../../src/gocompat/gotpl/errors.js';
import { nodeString } from '../../../../src/gocompat/gotpl/nodes.js';
import { parseTemplate } from '../../../../src/gocompat/gotpl/parse.js';

const FUNCS = new Set(['printf', 'len', 'eq', 'index', 'and', 'not', 'break']);
const parse = (text: string): Map<string, string> => {
  const trees = parseTemplate('t', text, { hasFunction: (n) => FUNCS.has(n) });
  return new Map([...trees].map(([name, tree]) => [name, nodeString(tree.root)]));
};

describe('parse tree round trip (Go parse.Tree.Root.String())', () => {
  const cases: [string, string, Record<string, string>?][] = [
    ['{{.X}}', '{{.X}}'],
    ['{{ $x := .X | .Y }}', '{{$x := .X | .Y}}'],
    ['{{if .X}}hello{{else}}goodbye{{end}}', '{{if .X}}hello{{else}}goodbye{{end}}'],
    ['{{range $x, $y := .SI}}{{.}}{{end}}', '{{range $x, $y := .SI}}{{.}}{{end}}'],
    ['{{with .X}}a{{else with .Y}}b{{else}}c{{end}}', '{{with .X}}a{{else}}{{with .Y}}b{{else}}c{{end}}{{end}}'],
    ['{{if .X}}a{{else if .Y}}b{{end}}', '{{if .X}}a{{else}}{{if .Y}}b{{end}}{{end}}'],
    ['{{printf "%d" ( 1 ) }}', '{{printf "%d" (1)}}'],
    ['{{ (printf "a").B.C }}', '{{(printf "a").B.C}}'],
    ['{{ $.A.B }}', '{{$.A.B}}'],
    ['{{ .A | printf "%s" | len }}', '{{.A | printf "%s" | len}}'],
    ['{{/* c */}}x', 'x'],
    ["{{ 'a' 1e3 0x1F -2 true nil }}", "{{'a' 1e3 0x1F -2 true nil}}"],
    ['{{ `raw` "q\\n" }}', '{{`raw` "q\\n"}}'],
    ['{{define "a"}}A{{end}}{{template "a" .}}{{block "b" .X}}B{{end}}', '{{template "a" .}}{{template "b" .X}}', { a: 'A', b: 'B' }],
    ['{{ break }}', '{{break}}'],
    ['{{ $x = 1 }}', '{{$x = 1}}'],
    ['{{range $i, $v = .}}{{end}}', '{{range $i, $v = .}}{{end}}'],
    ['{{ index .A 1 "k" }}', '{{index .A 1 "k"}}'],
    ['{{ eq .A .B | not }}', '{{eq .A .B | not}}'],
    ['x {{- .A -}} y', 'x{{.A}}y'],
    ['{{ and (eq 1 1) (not .X) }}', '{{and (eq 1 1) (not .X)}}'],
  ];
  for (const [input, root, defs] of cases) {
    it(input, () => {
      const trees = parse(input);
      assert.equal(trees.get('t'), root);
      for (const [name, body] of Object.entries(defs ?? {})) assert.equal(trees.get(name), body);
    });
  }

  it('treats "break" as a function name when one is declared (Go lexes it as an identifier)', () => {
    assert.equal(parse('{{range .}}{{ break }}{{end}}').get('t'), '{{range .}}{{break}}{{end}}');
  });
});

describe('parse errors (messages verified against Go)', () => {
  const cases: [string, string][] = [
    ['{{ $x, $y := 1 }}', 'template: t:1: too many declarations in command'],
    ['{{ foo }}', 'template: t:1: function "foo" not defined'],
    ['a\nb\n{{ if .X }}', 'template: t:3: unexpected EOF'],
    ['{{ .X }}\n{{ end }}', 'template: t:2: unexpected {{end}}'],
    ['{{ range $a, $b, $c := . }}{{ end }}', 'template: t:1: too many declarations in range'],
    ['{{ (1 }}', 'template: t:1: unclosed left paren'],
    ['{{ "x" | 3 }}', 'template: t:1: non executable command in pipeline stage 2'],
    ['{{ $u }}', 'template: t:1: undefined variable "$u"'],
    ['{{ if 1 }}\n{{ $x := 1 }}{{ end }}{{ $x }}', 'template: t:2: undefined variable "$x"'],
    ['{{ define "d" }}a{{ end }}{{ define "d" }}b{{ end }}', 'template: t:1: template: multiple definition of template "d"'],
    ['{{ range . }}{{ end }}{{ continue }}', 'template: t:1: {{continue}} outside {{range}}'],
    ['{{ 1.2.3 }}', 'template: t:1: unexpected ".3" in operand'],
    ['{{ true.x }}', 'template: t:1: unexpected . after term "true"'],
    ["{{ 'ab' }}", "template: t:1: malformed character constant: 'ab'"],
    ['{{ 99999999999999999999 }}', 'template: t:1: integer overflow: "99999999999999999999"'],
    ['{{ if\n 1 }}\n{{ else\n\n }}{{ end', 'template: t:5: unclosed action'],
    ['{{ .X | 1 }}', 'template: t:1: non executable command in pipeline stage 2'],
    ['{{ printf\n "unterminated }}', 'template: t:2: unterminated quoted string in action started at t:1'],
  ];
  for (const [input, message] of cases) {
    it(JSON.stringify(input), () => {
      assert.throws(
        () => parse(input),
        (e: unknown) => {
          assert.ok(e instanceof TemplateError);
          assert.equal(e.message, message);
          assert.equal(e.phase, 'parse');
          return true;
        },
      );
    });
  }
});
